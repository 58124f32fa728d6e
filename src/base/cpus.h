/* cpus.h - how many threads are worth starting: the CPUs this process may run on.
 * The one place that decides it (the symbol store's object workers use it). */
#ifndef TEPHRA_BASE_CPUS_H
#define TEPHRA_BASE_CPUS_H

/* The CPUs in this process's affinity mask (sched_getaffinity, so `taskset` and
 * cgroup cpusets count), at least 1. */
unsigned cpus_available(void);

/* Worker threads to start for work that spreads over CPUs: cpus_available(), at most
 * MAX, at least 1. */
unsigned cpus_workers(unsigned max);

#endif
