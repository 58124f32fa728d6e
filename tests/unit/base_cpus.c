/* base_cpus - cpus_available counts the CPUs the kernel lets this process run on, as
 * the kernel itself lists them (/proc/self/status, Cpus_allowed_list): unrestricted,
 * and pinned to each allowed CPU in turn (what `taskset -c N` does), where it is 1;
 * cpus_workers caps that count and never says 0. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpus.h"
#include "unit/check.h"

/* The kernel's list of allowed CPUs ("0-3,6"), as a count; -1 when unreadable. */
static int kernel_allowed(int *cpus, int cap)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[4096];
	int n = -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
			continue;
		n = 0;
		for (char *p = line + 18; *p && *p != '\n';) {
			if (*p == ' ' || *p == '\t' || *p == ',') {
				p++;
				continue;
			}
			long lo = strtol(p, &p, 10), hi = lo;
			if (*p == '-')
				hi = strtol(p + 1, &p, 10);
			for (long c = lo; c <= hi; c++, n++)
				if (n < cap)
					cpus[n] = (int)c;
		}
		break;
	}
	fclose(f);
	return n;
}

static int pin(const int *cpus, int n)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int i = 0; i < n; i++)
		CPU_SET(cpus[i], &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(void)
{
	int allowed[1024];
	int n = kernel_allowed(allowed, 1024);
	CHECK(n >= 1);
	if (n < 1 || n > 1024)
		return 1;
	CHECK(cpus_available() == (unsigned)n);
	CHECK(cpus_workers(1000) == (unsigned)n);
	CHECK(cpus_workers(1) == 1);
	CHECK(cpus_workers(0) == 1);
	if (n > 1)
		CHECK(cpus_workers((unsigned)n - 1) == (unsigned)n - 1);

	/* pinned to one CPU, as under `taskset -c CPU` */
	for (int i = 0; i < n; i++) {
		CHECK(pin(&allowed[i], 1) == 0);
		int one[1];
		CHECK(kernel_allowed(one, 1) == 1 && one[0] == allowed[i]);
		CHECK(cpus_available() == 1);
		CHECK(cpus_workers(8) == 1);
	}
	CHECK(pin(allowed, n) == 0);
	CHECK(cpus_available() == (unsigned)n);
	return failures != 0;
}
