/* workload.c - the benchmark program of bench/grind.sh: about 1e9 instructions of
 * call-heavy work (deep recursion, many small functions, a sort with a callback), so
 * the call tracking is exercised, not just straight-line counting. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static long mix(long x) { return (x * 6364136223846793005L + 1442695040888963407L) >> 7; }

static long sum_squares(const long *v, size_t n)
{
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i] % 1000 * (v[i] % 1000);
	return s;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 10;
	unsigned long f = 0;
	long s = 0;
	for (int r = 0; r < scale; r++) {
		f += fib(24);
		size_t n = 20000;
		long *v = malloc(n * sizeof(*v));
		long x = r;
		for (size_t i = 0; i < n; i++)
			v[i] = x = mix(x);
		qsort(v, n, sizeof(*v), cmp_long);
		s += sum_squares(v, n);
		free(v);
	}
	printf("%lu %ld\n", f, s);
	return 0;
}
