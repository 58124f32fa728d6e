/* vdso_clock.c - reads the clock in a loop for MILLISECONDS of CPU time (argument), so
 * most samples land in the vDSO's clock_gettime (for tests/perf/vdso.test.sh).  A CPU
 * time, not a count of calls: the recording gets the same few hundred samples on a busy
 * machine as on an idle one, so some are in the vDSO by construction. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../workloads/cpu_ms.h"

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 200;
	double end = cpu_ms() + ms;
	struct timespec ts;
	unsigned long sum = 0;

	do {
		/* cpu_ms() is a system call: read it once per 100000 vDSO calls (~2 ms) */
		for (int i = 0; i < 100000; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sum += (unsigned long)ts.tv_nsec;
		}
	} while (cpu_ms() < end);
	printf("%lu\n", sum & 1);
	return 0;
}
