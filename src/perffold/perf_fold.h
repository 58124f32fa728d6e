/* perf_fold.h - perf.data → folded stacks, as a library.
 *
 * This is the whole of `tephra fold` behind one call, so `tephra flamegraph`,
 * `tephra record` and `tephra diff` fold a perf.data file exactly as `tephra fold` would:
 * by default roots are comms and frames whole symbol names (fold_name_frame_exact); with
 * compat, every frame is named the way `perf script` prints it, then renamed by the rules
 * of fold/fold_naming.h, as `perf script | stackcollapse-perf.pl` would.
 *
 * Speed: samples are interned as stacks of *addresses* (per thread root); each unique
 * (map, address) is symbolized once, and names are built once per unique stack at the end. */
#ifndef TEPHRA_PERFFOLD_PERF_FOLD_H
#define TEPHRA_PERFFOLD_PERF_FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/report.h"
#include "export/export_sink.h"
#include "fold/fold_naming.h"
#include "fold/fold_table.h"
#include "fold/stack_sink.h"
#include "session/sample_filter.h"
#include "symbol/symbol_store.h"

enum perf_fold_weight {
	PERF_FOLD_WEIGHT_PERIOD,  /* sum of sample periods (what stackcollapse-perf.pl sums) */
	PERF_FOLD_WEIGHT_SAMPLES, /* one per sample */
};

/* What was folded, for saying what a weight is (filled when perf_fold_options.info is
 * set; the first event folded when tracepoints are folded beside it). */
struct perf_fold_info {
	char event[128];   /* the folded event's name as perf script prints it, "" if none */
	int time_ns;       /* its periods are nanoseconds (cpu-clock, task-clock) */
	uint64_t samples;  /* samples folded */
};

struct perf_fold_options {
	/* --from-text only: fold only samples of this event, as stackcollapse-perf.pl's
	 * --event-filter.  On perf.data, --event is filter.event (sample_filter.h); with
	 * neither, the event of the first sample, as stackcollapse-perf.pl picks the first
	 * event it sees (tracepoint samples folded with it). */
	const char *event;
	enum perf_fold_weight weight;
	enum fold_root_mode root;  /* comm, comm-PID, comm-PID/TID (stackcollapse --pid/--tid) */
	unsigned name_flags;       /* FOLD_KERNEL | FOLD_JIT | FOLD_ADDRS, and FOLD_INLINED for
				    * --inline: every user frame expanded into the functions
				    * inlined at it (DWARF), the inlined ones named "f_[i]" */
	int compat;                /* name roots and frames exactly as `perf script |
				    * stackcollapse-perf.pl` does (docs/folding.md, "Defaults
				    * and --compat"); 0: the thread's comm, true names */
	int srcline;               /* append ":file:line" (DWARF) to user frames' names */
	struct sample_filter filter; /* perf script's --pid/--tid/--comms/--max-stack */
	const struct symbol_options *symbols; /* NULL = defaults */
	const struct tephra_report *report; /* the reading's progress and warnings (NULL: none) */
	int strict;                /* --strict: damaged input is an error (perf_session_open) */
	/* perf_fold_file: where to print the short stack-quality block of a DWARF
	 * recording (quality/stack_quality.h), headed QUALITY_WHO; NULL = nowhere */
	FILE *quality;
	const char *quality_who;
	struct perf_fold_info *info; /* NULL, or filled with what was folded */
	/* perf_fold_file: NULL, or a table that gets every stack with its number of
	 * samples (whatever o->weight is) */
	struct fold_table *samples;
	/* perf_fold_file: describe the threads, frames (objects, addresses, inline
	 * chains, source lines) and stacks to this sink (export/export_sink.h) instead of
	 * adding the stacks to OUT (which then only interns the frame names); a frame is
	 * one (object, address), its lines the fold's names for it.  NULL: fold. */
	const struct export_sink *export;
	/* perf_fold_file: fold sched:sched_switch samples, each weighted with the
	 * nanoseconds its thread then stays off the CPU (docs/offcpu.md): threads that
	 * block (S, D, ...), and with off_cpu_preempted those preempted (R, R+) too */
	int off_cpu, off_cpu_preempted;
	/* perf_fold_file: wall clock: the on-CPU samples of a cpu-clock or task-clock
	 * event (periods in ns) and the off-CPU intervals (as off_cpu), these with a
	 * leaf frame "[off-cpu: STATE]" */
	int wall;
};

/* Folds every selected sample of PATH ("-" = standard input, pipe mode) into OUT
 * (root first: the comm root, then outermost caller … leaf).  Returns 0, or -1 with
 * ERR (file, offset, what); stacks folded before an error stay in OUT. */
int perf_fold_file(const char *path, const struct perf_fold_options *o, struct fold_table *out,
		   struct tephra_error *err);

/* Hands SINK every selected sample, in time order (for flame charts): its folded names,
 * root first, WEIGHT as o->weight, TIME the sample's.  Returns 0, or -1 with ERR. */
int perf_foreach_stack(const char *path, const struct perf_fold_options *o,
		       const struct stack_sink *sink, struct tephra_error *err);

#endif
