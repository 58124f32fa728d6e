/* Calls tiny shared-library functions through the PLT in a hot loop, so some samples
 * land in the .plt stubs; also has static and weak functions and an alias. */
#include <stdio.h>
#include <stdlib.h>

int tiny_add(int a, int b);
int tiny_mix(int a);

__attribute__((noinline)) static int local_work(int x)
{
	int s = 0;
	for (int i = 0; i < 50; i++)
		s += (x ^ i) * 7;
	return s;
}

__attribute__((noinline, weak)) int weak_work(int x) { return local_work(x) + 1; }
int alias_work(int x) __attribute__((alias("weak_work")));

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	int acc = 0;
	for (long i = 0; i < n; i++) {
		acc = tiny_add(acc, (int)i);
		acc = tiny_mix(acc);
		if ((i & 63) == 0)
			acc += alias_work(acc);
	}
	printf("%d\n", acc);
	return 0;
}
