/* deep.c - a workload for the perf oracle tests: recursion 300 frames deep (deeper than
 * perf's 127-frame callchains) with no library calls on the hot path, so DWARF
 * unwinding (--call-graph dwarf) and frame pointers both see only this program's frames.
 * Usage: deep [MILLISECONDS of CPU time]  (default 200). */
#include <stdlib.h>
#include <time.h>

#include "cpu_ms.h"

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
	double end = cpu_ms() + ms;
	long s = 0;
	do {
		for (int i = 0; i < 50; i++)
			s += deep(300);
	} while (cpu_ms() < end);
	return (int)(s & 1);
}
