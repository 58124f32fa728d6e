/* sample_filter.h - which samples of a perf.data file are read, and how many frames of
 * each: perf script's --pid/--tid/--comms/--max-stack (`tephra fold` spells the first two
 * --only-pid/--only-tid, its --pid/--tid being stackcollapse's roots), and --event.  The commands fill
 * one with sample_filter_parse; the session applies it (sample_filter_keeps). */
#ifndef TEPHRA_SESSION_SAMPLE_FILTER_H
#define TEPHRA_SESSION_SAMPLE_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "machine/machine.h"
#include "perfdata/perf_reader.h"

struct sample_filter {
	int32_t *pids;     /* keep samples whose thread's pid is listed (NULL: all) */
	size_t nr_pids;
	int32_t *tids;     /* ... whose tid is listed (NULL: all) */
	size_t nr_tids;
	char **comms;      /* ... whose thread's comm at the sample is listed (NULL: all) */
	size_t nr_comms;
	int max_stack;     /* frames per sample; 0 = perf script's default (127) */
	char *event;       /* only samples of the event perf script names so (NULL: all) */
	char *time;        /* --time, perf script's syntax (NULL: all): "START,END" in
			    * seconds (either may be empty; several separated by blanks),
			    * or percentages of the recording "A%-B%", "A%/N" (the Nth
			    * slice of A%), several separated by commas */
	int guest;         /* --guest: keep the samples taken in a guest (cpumode
			    * GUEST_KERNEL/GUEST_USER), which perf script and perf report
			    * hide; 0: hide them too */
};

/* A time range a sample must lie in (inclusive, ns; end 0: no end). */
struct sample_time_range {
	uint64_t start, end;
};

/* --max-stack's largest value: far above any real stack (perf's own limit,
 * kernel.perf_event_max_stack, is 127 by default), small enough for the per-sample
 * frame buffers sized by it. */
#define SAMPLE_FILTER_MAX_STACK_LIMIT 65535

enum sample_filter_kind {
	SAMPLE_FILTER_PIDS,      /* "1,2,3", each 0..2^22 (the kernel's largest pid) */
	SAMPLE_FILTER_TIDS,      /* "1,2,3", each 0..2^22 */
	SAMPLE_FILTER_COMMS,     /* "name,other name" */
	SAMPLE_FILTER_MAX_STACK, /* 1..SAMPLE_FILTER_MAX_STACK_LIMIT */
	SAMPLE_FILTER_EVENT,     /* an event name as perf script prints it */
	SAMPLE_FILTER_TIME,      /* --time (see struct sample_filter) */
};

/* Sets the KIND part of F from ARG, the value of the long option OPTION ("only-pid",
 * named in the error); a repeated option replaces the earlier value, as in perf.
 * Returns 0, or -1 with ERR. */
int sample_filter_parse(struct sample_filter *f, enum sample_filter_kind kind, const char *option,
			const char *arg, struct tephra_error *err);

/* Whether a sample of thread T passes F (F NULL: every sample). */
int sample_filter_keeps(const struct sample_filter *f, const struct thread *t);

/* Which of R's events F's --event selects: a calloc'ed flag per event index in *MASK
 * (NULL when F selects by no event).  The name matches exactly, or, for events that are
 * not tracepoints, up to its modifiers ("cpu-clock" selects "cpu-clock:ppp").  Returns 0,
 * or -1 with ERR naming the events PATH has when none matches. */
int sample_filter_events(const struct sample_filter *f, const struct perf_reader *r,
			 const char *path, unsigned char **mask, struct tephra_error *err);

/* F's --time as ranges for R (percentages of its first to last sample time, from the
 * SAMPLE_TIME header): a malloc'ed array in *RANGES, *NR of them (NULL, 0 when F has no
 * --time).  Returns 0, or -1 with ERR (percentages without that header). */
int sample_filter_times(const struct sample_filter *f, const struct perf_reader *r,
			const char *path, struct sample_time_range **ranges, size_t *nr,
			struct tephra_error *err);

/* Whether a sample at TIME lies in one of RANGES (NR 0: every sample; perf keeps
 * samples without a time, 0). */
int sample_filter_time_keeps(const struct sample_time_range *ranges, size_t nr, uint64_t time);

/* Frees what sample_filter_parse allocated, and empties F. */
void sample_filter_free(struct sample_filter *f);

#endif
