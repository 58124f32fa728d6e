/* lld_vdso_workload.c - for tests/unwind/perf_oracle_lld_vdso.test.sh.
 *
 * Linked with lld and built without frame pointers: lld packs segments without
 * page-aligning their file offsets, so the text segment's first page is shared with the
 * read-only segment before it (the load bias must come from the segment that starts at
 * the mapping's offset).  The hot loop reads the clock through the vdso from a few
 * frames deep, so many samples land in [vdso] and the walk must go on through its
 * .eh_frame into libc and back here.
 * Usage: lld_vdso_workload [MILLISECONDS]  (default 300). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t read_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static uint64_t mix(uint64_t x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = (x * 0x9E3779B97F4A7C15ull) ^ (x >> 29);
	return x;
}

__attribute__((noinline)) static uint64_t step(uint64_t acc)
{
	uint64_t now = read_clock();

	return mix(acc ^ now, 50) + now;
}

int main(int argc, char **argv)
{
	uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 300;
	uint64_t end = read_clock() + ms * 1000000u, acc = 1;

	while (read_clock() < end)
		acc = step(acc);
	sink = acc;
	printf("%d\n", (int)(acc & 1));
	return 0;
}
