/* recurse.c - a workload for the perf oracle tests: recursion that calls into libc.
 * Usage: recurse [MILLISECONDS of CPU time]  (default 300).  Built with -fno-omit-frame-pointer so
 * `perf record -g` sees full user stacks; the libc calls give frames in a shared object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_ms.h"


static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* noinline keeps every level a real frame in the recorded callchains. */
__attribute__((noinline)) static unsigned long leaf_work(int depth)
{
	int v[256];
	char s[512];
	for (int i = 0; i < 256; i++)
		v[i] = (i * 7919 + depth * 31) % 1000;
	qsort(v, 256, sizeof(v[0]), compare_ints);
	memset(s, 'a' + depth % 26, sizeof(s) - 1);
	s[sizeof(s) - 1] = 0;
	return (unsigned long)v[depth % 256] + strlen(s);
}

__attribute__((noinline)) static unsigned long descend(int depth)
{
	if (depth == 0)
		return leaf_work(depth);
	unsigned long r = descend(depth - 1);
	if (depth % 3 == 0)
		r += leaf_work(depth);
	return r;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	double end = cpu_ms() + ms;
	unsigned long sum = 0;
	/* the clock is read rarely: its system call's frames stay out of the profile */
	while (cpu_ms() < end)
		for (int i = 0; i < 64; i++)
			sum += descend(12);
	printf("%lu\n", sum % 10);
	return 0;
}
