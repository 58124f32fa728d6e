/* perf_fold_offcpu.c - off-CPU and wall-clock folds (see perf_fold_offcpu.h). */
#include "perffold/perf_fold_offcpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "offcpu/offcpu.h"
#include "quality/stack_quality.h"
#include "tracepoint/trace_format.h"

#define PERF_ATTR_TYPE_SOFTWARE 1 /* config 0 cpu-clock, 1 task-clock: periods in ns */

uint32_t perf_fold_offcpu_leaf(struct fold_run *r, unsigned state)
{
	char name[48];
	int len = snprintf(name, sizeof(name), "[off-cpu: %s]", offcpu_state_name(r->offcpu, state));
	return fold_table_frame(r->table, name, (size_t)len);
}

/* The export frame id of the leaf "[off-cpu: STATE]": a name slot of its own (tagged
 * apart from every {object, address, java} key), described once as a frame in no
 * object, at no address. */
static uint32_t export_leaf(struct fold_run *r, unsigned state)
{
	uint64_t key[3] = { UINT64_MAX, state, UINT64_MAX };
	int created;
	size_t i = fold_run_name_slot(r, key, &created);
	if (created) {
		r->name_frames[i] = (uint32_t)r->nr_frame_ids;
		r->name_counts[i] = 0; /* no sample's frame: never folded by key */
		memset(&r->name_printed[i], 0, sizeof(r->name_printed[i]));
		char name[48];
		snprintf(name, sizeof(name), "[off-cpu: %s]", offcpu_state_name(r->offcpu, state));
		struct export_line line = { name, NULL, NULL, 0 };
		struct export_frame f = { 0, NULL, NULL, 0, &line, 1 };
		if (r->o->export->frame)
			r->o->export->frame(r->o->export->ctx, (uint32_t)i, &f);
	}
	return (uint32_t)i;
}

void perf_fold_offcpu_export_stack(struct fold_run *r, size_t i, uint32_t root, size_t n,
				   unsigned state)
{
	uint32_t *frames = xmalloc((n + 1) * sizeof(*frames));
	memcpy(frames, r->key_names, n * sizeof(*frames));
	frames[n] = export_leaf(r, state);
	r->o->export->stack(r->o->export->ctx, (uint32_t)i, root, frames, n + 1);
	free(frames);
}

static void charge(void *ctx, uint64_t stack, unsigned state, uint64_t start, uint64_t ns)
{
	struct fold_run *r = ctx;
	(void)state; /* --wall keyed the stack by it already */
	hashmap_entry(&r->stacks, (size_t)stack)->value += ns;
	if (r->stack_count)
		r->stack_count[stack]++;
	/* one sample per interval (per part inside --time's slice), at its start: the
	 * thread's samples stay in time order (it has none while off the CPU; an interval
	 * ends before the sample that ends it is folded) */
	if (r->o->export && r->o->export->sample)
		r->o->export->sample(r->o->export->ctx, (uint32_t)stack, ns, start);
}

static void on_record(void *arg, const struct perf_event *ev)
{
	struct fold_run *r = arg;
	/* a switch-in record is the current thread's (system-wide ones too) */
	if ((ev->type == PERF_REC_SWITCH || ev->type == PERF_REC_SWITCH_CPU_WIDE) &&
	    !(ev->misc & PERF_MISC_SWITCH_OUT))
		offcpu_switch_in(r->offcpu, (int32_t)ev->sid.tid, ev->sid.time);
	else if (ev->type == PERF_REC_SWITCH || ev->type == PERF_REC_SWITCH_CPU_WIDE)
		offcpu_switch_out(r->offcpu, (int32_t)ev->sid.tid, ev->sid.time,
				  (ev->misc & PERF_MISC_SWITCH_OUT_PREEMPT) != 0);
	else
		offcpu_seen(r->offcpu, ev->sid.time);
}

int perf_fold_offcpu_start(struct fold_run *r, struct perf_session *s,
			   struct sample_filter *run, struct tephra_error *err)
{
	const struct perf_fold_options *o = r->o;
	const struct perf_event_desc *sw = NULL;
	int clock = 0;
	for (size_t i = 0; i < perf_reader_nr_events(s->reader); i++) {
		const struct perf_event_desc *d = perf_reader_event(s->reader, i);
		if (!sw && d->tp && !strcmp(d->tp->full_name, "sched:sched_switch")) {
			sw = d;
			r->switch_index = i;
		}
		if (d->attr.type == PERF_ATTR_TYPE_SOFTWARE && d->attr.config <= 1)
			clock = 1;
	}
	if (!sw) {
		tephra_error_set(err, "%s: no sched:sched_switch event in the recording: record "
				 "with `tephra record --off-cpu` (docs/offcpu.md)", s->path);
		return -1;
	}
	if (o->wall && !clock) {
		tephra_error_set(err, "%s: --wall needs on-CPU samples of cpu-clock or task-clock "
				 "(periods in nanoseconds): record with `tephra record --off-cpu`",
				 s->path);
		return -1;
	}
	/* a switch the kernel did not sample has no stack: its wait is lost (perf record -F
	 * applies to the tracepoint too, and samples it by frequency) */
	if ((sw->attr.flags & PERF_ATTR_FLAG_FREQ) || sw->attr.sample_period_or_freq > 1)
		tephra_warn(o->report, "%s: sched:sched_switch was sampled %s %llu, not at every "
			    "switch: the waits of the switches skipped are missing; record every "
			    "one: perf record -e sched:sched_switch -c 1 (with -F, give the clock "
			    "its frequency as a term: -e cpu-clock/freq=999/), or tephra record "
			    "--off-cpu", s->path, (sw->attr.flags & PERF_ATTR_FLAG_FREQ) ?
			    "at a frequency of" : "with a period of",
			    (unsigned long long)sw->attr.sample_period_or_freq);
	/* --time: the slice applies to the intervals, not to the records read (an interval
	 * in it may start before it); the on-CPU samples of --wall are kept by their time */
	if (sample_filter_times(&o->filter, s->reader, s->path, &r->times, &r->nr_times, err))
		return -1;
	r->offcpu = offcpu_new(perf_reader_tracepoints(s->reader), sw->tp, o->off_cpu_preempted,
			       charge, r, err);
	if (!r->offcpu)
		return -1;
	if (r->nr_times) {
		struct offcpu_range *slice = xmalloc(r->nr_times * sizeof(*slice));
		for (size_t i = 0; i < r->nr_times; i++)
			slice[i] = (struct offcpu_range){ r->times[i].start,
							  r->times[i].end ? r->times[i].end : UINT64_MAX };
		offcpu_set_slice(r->offcpu, slice, r->nr_times);
		free(slice);
	}
	/* the weights are nanoseconds of this profile, whatever event was sampled */
	if (o->export && o->export->event)
		o->export->event(o->export->ctx, o->wall ? "wall" : "off-cpu");
	s->on_record = on_record;
	s->record_arg = r;
	memset(run, 0, sizeof(*run));
	run->max_stack = o->filter.max_stack;
	return 0;
}

int perf_fold_offcpu_sample(struct fold_run *r, const struct perf_session_sample *ps,
			    int (*fold_on_cpu)(void *arg, struct perf_session *s,
					       const struct perf_session_sample *ps),
			    struct perf_session *s)
{
	const struct perf_sample *smp = ps->sample;
	int kept = sample_filter_keeps(&r->o->filter, ps->thread);
	if (ps->event_index != r->switch_index) {
		offcpu_sample(r->offcpu, (int32_t)smp->tid, smp->time);
		const struct perf_event_desc *d = ps->desc;
		/* --wall: on-CPU time is what the clock events sampled */
		if (r->o->wall && kept && d && d->attr.type == PERF_ATTR_TYPE_SOFTWARE &&
		    d->attr.config <= 1 && sample_filter_time_keeps(r->times, r->nr_times, smp->time))
			return fold_on_cpu(r, s, ps);
		return 0;
	}
	struct offcpu_switch sw;
	if (offcpu_decode(r->offcpu, smp->raw, smp->raw_size, &sw)) {
		r->switch_undecoded++;
		offcpu_seen(r->offcpu, smp->time);
		return 0;
	}
	size_t i = 0;
	if (sw.charged && kept && offcpu_may_charge(r->offcpu, smp->time)) {
		r->cur_state = r->o->wall ? sw.state + 1 : 0;
		sw.charged = fold_run_stack_of(r, ps, &i);
		r->cur_state = 0;
	} else {
		sw.charged = 0;
	}
	offcpu_switch(r->offcpu, &sw, smp->time, i);
	return 0;
}

void perf_fold_offcpu_finish(struct fold_run *r)
{
	const struct tephra_report *rep = r->o->report;
	offcpu_finish(r->offcpu);
	const struct offcpu_counts *c = offcpu_counts(r->offcpu);
	if (c->at_end)
		tephra_warn(rep, "%llu thread(s) still off the CPU at the end of the recording: "
			    "charged up to its end", (unsigned long long)c->at_end);
	if (c->by_sample)
		tephra_warn(rep, "%llu off-CPU interval(s) without a switch-in: ended at the "
			    "thread's next sample (record context switches: perf record "
			    "--switch-events)", (unsigned long long)c->by_sample);
	if (c->backwards)
		tephra_warn(rep, "%llu switch-in(s) earlier than their switch-out (time ran "
			    "backwards): charged 0 ns", (unsigned long long)c->backwards);
	if (c->unsampled)
		tephra_warn(rep, "%llu switch-out(s) without a sched_switch sample (the kernel wrote "
			    "the context-switch record, not the sample): %.1f ms off the CPU have no "
			    "stack and are not in the profile", (unsigned long long)c->unsampled,
			    (double)c->unsampled_ns / 1e6);
	if (r->switch_undecoded)
		tephra_warn(rep, "%llu sched_switch sample(s) too short for their fields: skipped",
			    (unsigned long long)r->switch_undecoded);
}
