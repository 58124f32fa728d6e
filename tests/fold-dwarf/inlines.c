/* inlines.c - a workload for the DWARF fold tests: the hot loop is in mix(), inlined
 * into step(), inlined into work(), so perf's DWARF call graphs print mix and step as
 * "(inlined)" frames of work.  Usage: inlines [ITERATIONS] (default 1000000).  Starts
 * the recording from main when run by tests/perf/lib.sh record_from_main. */
#include <stdlib.h>
#include "../workloads/perf_ctl.h"

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 50; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL; /* HOT LINE */
	return x;
}

static inline __attribute__((always_inline)) unsigned long step(unsigned long x)
{
	return mix(x) ^ (x >> 3);
}

__attribute__((noinline)) unsigned long work(unsigned long n)
{
	unsigned long x = n;
	for (unsigned long i = 0; i < n; i++)
		x = step(x + i);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000;
	perf_ctl_enable();
	for (int k = 0; k < 10; k++)
		sink += work(n);
	return 0;
}
