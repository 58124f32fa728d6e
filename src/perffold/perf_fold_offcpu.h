/* perf_fold_offcpu.h - the off-CPU and wall-clock parts of a fold (fold --off-cpu,
 * --wall): the session's samples and switch records fed to offcpu/offcpu.h, whose
 * intervals are charged to the switch-out's stack.  Private to src/perffold/. */
#ifndef TEPHRA_PERFFOLD_PERF_FOLD_OFFCPU_H
#define TEPHRA_PERFFOLD_PERF_FOLD_OFFCPU_H

#include <stdint.h>

#include "base/error.h"
#include "perffold/fold_run.h"
#include "session/sample_filter.h"

/* Sets R up to fold S's switches: the tracker, S's record hook, and in *RUN the filter
 * to read with (every thread's samples: a kept thread may be switched in by another's
 * switch).  Returns 0, or -1 with ERR (no sched_switch in the recording, --wall
 * without a clock event). */
int perf_fold_offcpu_start(struct fold_run *r, struct perf_session *s,
			   struct sample_filter *run, struct tephra_error *err);

/* The session's sample callback for an off-CPU or wall fold (FOLD_ON_CPU folds a
 * kept on-CPU sample for --wall). */
int perf_fold_offcpu_sample(struct fold_run *r, const struct perf_session_sample *ps,
			    int (*fold_on_cpu)(void *arg, struct perf_session *s,
					       const struct perf_session_sample *ps),
			    struct perf_session *s);

/* Charges the threads still off the CPU and reports what was not exact. */
void perf_fold_offcpu_finish(struct fold_run *r);

/* Describes stack I (o->export) of root ROOT to the sink: its N frames (r->key_names)
 * and the leaf "[off-cpu: STATE]", a frame in no object (--wall). */
void perf_fold_offcpu_export_stack(struct fold_run *r, size_t i, uint32_t root, size_t n,
				   unsigned state);

/* The fold_table frame id of the leaf "[off-cpu: STATE]". */
uint32_t perf_fold_offcpu_leaf(struct fold_run *r, unsigned state);

#endif
