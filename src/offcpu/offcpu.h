/* offcpu.h - off-CPU time from scheduler switches.
 *
 * A thread's stack at the moment it is switched out (a sched:sched_switch sample, taken
 * in the context of the thread leaving the CPU) is charged with the time until the
 * thread next runs: its switch-in, seen as a context-switch record (PERF_RECORD_SWITCH
 * "IN") or as a later sched_switch whose next_pid is the thread.  The state the thread
 * left in (prev_state) is named as `perf script` prints it ("S", "D", "R", "R+"): the
 * event's own print fmt evaluated (tracepoint/tp_print.h), once per distinct value.  By
 * default only blocked time is charged (any state but R, R+ and the dead X, Z); with
 * preempted, R and R+ too.  The caller feeds records in time order and gets each
 * finished interval through a callback; threads still off the CPU at the end are
 * charged up to the last time seen (offcpu_finish).  With a slice (offcpu_set_slice,
 * `--time`), only each interval's overlap with the slice is charged: the switches
 * outside it are fed all the same, since an interval may start before the slice. */
#ifndef TEPHRA_OFFCPU_OFFCPU_H
#define TEPHRA_OFFCPU_OFFCPU_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "tracepoint/trace_format.h"

/* A finished off-CPU interval, or with a slice each nonempty part of it inside one of
 * the slice's ranges: the switch-out's STACK (the caller's id), the index of the state
 * it left in (offcpu_state_name), the time START the part begins (the switch-out
 * without a slice) and its length in nanoseconds. */
typedef void (*offcpu_charge_fn)(void *ctx, uint64_t stack, unsigned state, uint64_t start,
				 uint64_t ns);

struct offcpu_counts {
	uint64_t intervals;    /* charged intervals */
	uint64_t at_end;       /* ... of threads still off the CPU at the end (charged to it) */
	uint64_t by_sample;    /* ... ended by the thread's next sample, no switch-in seen */
	uint64_t backwards;    /* switch-ins earlier than their switch-out (charged 0) */
	uint64_t skipped;      /* switch-outs in a state not charged (R, R+, X, Z) */
	uint64_t unsampled;    /* switch-out records with no sched_switch sample before them */
	uint64_t unsampled_ns; /* ... the time those threads were off the CPU (not charged) */
};

struct offcpu;

/* A tracker for switches of EV (the recording's sched:sched_switch format, from F);
 * PREEMPTED: charge R/R+ switch-outs too.  NULL with ERR when EV lacks prev_pid,
 * prev_state or next_pid. */
struct offcpu *offcpu_new(const struct tp_formats *f, const struct tp_event *ev, int preempted,
			  offcpu_charge_fn charge, void *ctx, struct tephra_error *err);
void offcpu_free(struct offcpu *o);

/* A time range, inclusive, in ns (END UINT64_MAX: no end; END below START: empty). */
struct offcpu_range {
	uint64_t start, end;
};
/* Charge only the parts of intervals inside the union of the NR RANGES (in any order,
 * overlapping or empty ones allowed); NR 0: whole intervals.  Copied. */
void offcpu_set_slice(struct offcpu *o, const struct offcpu_range *ranges, size_t nr);
/* Whether an interval starting at TIME can have a part in the slice (always without
 * one): the caller need not find the stack of a switch-out after the slice. */
int offcpu_may_charge(const struct offcpu *o, uint64_t time);

/* One sched_switch sample's fields.  CHARGED: its state is one that is charged.
 * Returns 0, or -1 when RAW does not hold the fields. */
struct offcpu_switch {
	int32_t prev_tid, next_tid;
	unsigned state;
	int charged;
};
int offcpu_decode(struct offcpu *o, const uint8_t *raw, size_t raw_size, struct offcpu_switch *sw);

/* The switch SW at TIME: NEXT_TID runs; PREV_TID (when charged) leaves with STACK. */
void offcpu_switch(struct offcpu *o, const struct offcpu_switch *sw, uint64_t time,
		   uint64_t stack);
/* TID runs from TIME on (a switch-in record). */
void offcpu_switch_in(struct offcpu *o, int32_t tid, uint64_t time);
/* A switch-out record of TID at TIME (PREEMPT: the kernel says it was preempted).
 * After the sched_switch sample of the same switch it changes nothing; without one
 * (the kernel did not write it) the time until the switch-in is counted as unsampled,
 * blocked switches only unless preempted time is charged. */
void offcpu_switch_out(struct offcpu *o, int32_t tid, uint64_t time, int preempt);
/* A sample of TID at TIME (it runs): ends its interval when no switch-in did. */
void offcpu_sample(struct offcpu *o, int32_t tid, uint64_t time);
/* A record at TIME: the recording lasts at least until then. */
void offcpu_seen(struct offcpu *o, uint64_t time);
/* Charges the threads still off the CPU up to the last time seen. */
void offcpu_finish(struct offcpu *o);

const char *offcpu_state_name(const struct offcpu *o, unsigned state);
const struct offcpu_counts *offcpu_counts(const struct offcpu *o);

#endif
