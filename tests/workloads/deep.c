/* deep.c - a workload for the perf oracle tests: recursion 300 frames deep (deeper than
 * perf's 127-frame callchains) with no library calls on the hot path, so DWARF
 * unwinding (--call-graph dwarf) and frame pointers both see only this program's frames.
 * Usage: deep [MILLISECONDS]  (default 200). */
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) static long deep(int n)
{
	if (n == 0) {
		long s = 0;
		for (int i = 0; i < 200000; i++)
			s += i * (long)i;
		return s;
	}
	return deep(n - 1) + 1;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 200;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long s = 0;
	do {
		for (int i = 0; i < 50; i++)
			s += deep(300);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) / 1e6 < ms);
	return (int)(s & 1);
}
