/* perf_ctl.h - lets a workload switch perf record's events on from its main(): with
 * `perf record -D -1 --control fifo:CTL` (tests/perf/lib.sh record_from_main) and
 * TEPHRA_PERF_CTL=CTL in its environment, perf_ctl_enable() writes "enable" to CTL, so the
 * recording starts after the dynamic loader by construction (perf's -D MS waits wall time,
 * which a loaded machine can stretch past the whole run).  No-op without the variable. */
#ifndef TEPHRA_WORKLOADS_PERF_CTL_H
#define TEPHRA_WORKLOADS_PERF_CTL_H
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static inline void perf_ctl_enable(void)
{
	const char *path = getenv("TEPHRA_PERF_CTL");
	if (!path)
		return;
	/* perf holds the FIFO open for reading before it starts the workload */
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "enable\n", 7) != 7)
		abort(); /* a recording that never starts must not pass for an empty one */
	close(fd);
}
#endif
