/* vdso_clock.c - reads the clock in a loop, so most samples land in the vDSO's
 * clock_gettime (for tests/perf/vdso.test.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	struct timespec ts;
	unsigned long sum = 0;

	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += (unsigned long)ts.tv_nsec;
	}
	printf("%lu\n", sum & 1);
	return 0;
}
