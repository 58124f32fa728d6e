/* lld_plt_workload.c - for tests/unwind/perf_oracle_lld_plt.test.sh.
 *
 * Linked with lld, which writes no .eh_frame for its PLT.  The hot loop calls a tiny
 * libc function (labs; built with -fno-builtin so the call stays) through its PLT stub
 * from a few frames deep, so a good share of samples land on the stub itself, where
 * only [rsp] tells the caller.
 * Usage: lld_plt_workload [MILLISECONDS]  (default 300). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile long sink;

__attribute__((noinline)) static long through_plt(long x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = labs(x) - i;
	return x;
}

__attribute__((noinline)) static long step(long acc)
{
	return through_plt(acc, 1000) + 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 300;
	uint64_t end = now_ns() + ms * 1000000u;
	long acc = 1;

	while (now_ns() < end)
		acc = step(acc);
	sink = acc;
	printf("%d\n", (int)(acc & 1));
	return 0;
}
