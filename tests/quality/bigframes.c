/* bigframes.c - a workload for the stack-quality tests: 9 nested calls that each keep
 * 600 bytes of stack live, so a walk from the leaf needs about 5.5 KB of stack dump and
 * `perf record --call-graph dwarf,1024` must cut it short.
 * Usage: bigframes [ITERATIONS]  (work per leaf call; default 3000000). */
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long level(int depth, unsigned long n)
{
	volatile char buf[600];
	memset((char *)buf, depth, sizeof(buf));
	unsigned long x = buf[depth];
	if (depth)
		return level(depth - 1, n) + buf[599];
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + i;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 3000000;
	for (int k = 0; k < 20; k++)
		sink += level(8, n);
	return 0;
}
