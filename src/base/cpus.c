/* cpus.c - the CPUs available to the process (see cpus.h). */
#include "base/cpus.h"

#include <sched.h>
#include <stdlib.h>

unsigned cpus_available(void)
{
	/* the mask may be larger than cpu_set_t on machines with > 1024 CPUs: grow it */
	for (size_t n = CPU_SETSIZE; n <= (size_t)1 << 20; n *= 2) {
		size_t size = CPU_ALLOC_SIZE(n);
		cpu_set_t *set = CPU_ALLOC(n);
		if (!set)
			return 1;
		CPU_ZERO_S(size, set);
		int ok = sched_getaffinity(0, size, set) == 0;
		int count = ok ? CPU_COUNT_S(size, set) : 0;
		CPU_FREE(set);
		if (ok)
			return count > 0 ? (unsigned)count : 1;
	}
	return 1;
}

unsigned cpus_workers(unsigned max)
{
	unsigned n = cpus_available();
	if (max < 1)
		max = 1;
	return n < max ? n : max;
}
