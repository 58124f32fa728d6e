/* junk_rbp_main.c: main -> caller (junk_rbp_caller.S: rbp points at junk) -> hot (libhot.so). */
#include <stdio.h>
#include <stdlib.h>
long caller(long n);
int main(int argc, char **argv)
{
	printf("%d\n", caller(argc > 1 ? atol(argv[1]) : 300000000) > 0);
	return 0;
}
