/* cpu_ms.h - the clock of the workloads' MILLISECONDS argument: CPU time of the calling
 * thread, not wall time.  A test recording a workload then gets the same number of
 * cpu-clock samples (and about the same file size) on a busy machine as on an idle one:
 * load stretches the run instead of shrinking its profile.  It is a system call (no
 * vdso), so callers read it rarely to keep its kernel frames out of the profiles. */
#ifndef TEPHRA_WORKLOADS_CPU_MS_H
#define TEPHRA_WORKLOADS_CPU_MS_H
#include <time.h>

static inline double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
#endif
