/* Code in a section the linker places far from the rest (its own PT_LOAD, with a
 * vaddr - offset unlike .text's), called in a hot loop. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, section("far_code"))) long far_work(long x)
{
	long s = 0;
	for (int i = 0; i < 200; i++)
		s += (x ^ i) * 3;
	return s;
}

__attribute__((noinline)) long near_work(long x)
{
	return far_work(x) + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000, t = 0;
	for (long i = 0; i < n; i++)
		t += near_work(i);
	printf("%ld\n", t);
	return 0;
}
