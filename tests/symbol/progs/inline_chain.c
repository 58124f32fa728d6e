/* Inlined functions two deep inside a real one, for DWARF inline chains. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) long inner(long x)
{
	long s = 0;
	for (int i = 0; i < 100; i++)
		s += (x * i) ^ (s >> 3);
	return s;
}

static inline __attribute__((always_inline)) long middle(long x)
{
	return inner(x) + inner(x + 1);
}

__attribute__((noinline)) long outer(long x)
{
	return middle(x) * 3;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000000, t = 0;
	for (long i = 0; i < n; i++)
		t += outer(i);
	printf("%ld\n", t);
	return 0;
}
