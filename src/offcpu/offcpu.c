/* offcpu.c - off-CPU intervals from scheduler switches (see offcpu.h). */
#include "offcpu/offcpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "tracepoint/tp_field.h"
#include "tracepoint/tp_print.h"

#define MAX_STATES 64 /* distinct prev_state values named; more share the last name */

struct offcpu_thread {
	uint64_t out_time;
	uint64_t stack;
	unsigned state;
	int off;          /* switched out and not seen running since */
	int sampled_out;  /* a sched_switch sample took it off the CPU, no switch-out record yet */
	int unsampled;    /* off the CPU by a switch-out record that had no sample */
	uint64_t unsampled_time;
};

struct offcpu {
	const struct tp_formats *formats;
	const struct tp_event *ev;
	const struct tp_field *prev_pid, *prev_state, *next_pid;
	int preempted;
	offcpu_charge_fn charge;
	void *ctx;
	uint64_t state_values[MAX_STATES];
	char state_names[MAX_STATES][24];
	int state_charged[MAX_STATES];
	unsigned nr_states;
	struct hashmap tids;      /* tid → index into threads */
	struct offcpu_thread *threads;
	size_t cap_threads;
	uint64_t last_time;
	struct offcpu_range *slice; /* sorted, disjoint, nonempty; NULL: no slice */
	size_t nr_slice;
	struct offcpu_counts counts;
	struct strbuf text;
};

struct offcpu *offcpu_new(const struct tp_formats *f, const struct tp_event *ev, int preempted,
			  offcpu_charge_fn charge, void *ctx, struct tephra_error *err)
{
	const struct tp_field *pp = tp_event_field(ev, "prev_pid");
	const struct tp_field *ps = tp_event_field(ev, "prev_state");
	const struct tp_field *np = tp_event_field(ev, "next_pid");
	if (!pp || !ps || !np) {
		tephra_error_set(err, "%s: its format has no %s field", ev->full_name,
				 !pp ? "prev_pid" : !ps ? "prev_state" : "next_pid");
		return NULL;
	}
	struct offcpu *o = xcalloc(1, sizeof(*o));
	o->formats = f;
	o->ev = ev;
	o->prev_pid = pp;
	o->prev_state = ps;
	o->next_pid = np;
	o->preempted = preempted;
	o->charge = charge;
	o->ctx = ctx;
	hashmap_init(&o->tids);
	return o;
}

void offcpu_free(struct offcpu *o)
{
	if (!o)
		return;
	hashmap_release(&o->tids);
	free(o->threads);
	free(o->slice);
	strbuf_release(&o->text);
	free(o);
}

static int by_start(const void *a, const void *b)
{
	const struct offcpu_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

void offcpu_set_slice(struct offcpu *o, const struct offcpu_range *ranges, size_t nr)
{
	free(o->slice);
	o->slice = NULL;
	o->nr_slice = 0;
	if (!nr)
		return;
	/* the union as sorted disjoint ranges, so that no time is charged twice */
	struct offcpu_range *v = xmalloc(nr * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < nr; i++)
		if (ranges[i].end >= ranges[i].start)
			v[n++] = ranges[i];
	qsort(v, n, sizeof(*v), by_start);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && v[i].start <= v[m - 1].end) {
			if (v[i].end > v[m - 1].end)
				v[m - 1].end = v[i].end;
		} else {
			v[m++] = v[i];
		}
	}
	o->slice = v; /* m may be 0: a slice of empty ranges charges nothing */
	o->nr_slice = m;
}

int offcpu_may_charge(const struct offcpu *o, uint64_t time)
{
	return !o->slice || (o->nr_slice && time < o->slice[o->nr_slice - 1].end);
}

/* The name perf script prints for prev_state VALUE: the "prev_state=" word of the
 * event's print fmt evaluated over RAW; without it, "R" for 0 and the value in hex. */
static void name_state(struct offcpu *o, uint64_t value, const uint8_t *raw, size_t raw_size,
		       char *name, size_t size)
{
	strbuf_reset(&o->text);
	tp_print_sample(o->formats, o->ev, raw, raw_size, NULL, &o->text);
	const char *p = o->ev->print_ok && o->text.buf ? strstr(o->text.buf, "prev_state=") : NULL;
	if (p) {
		p += strlen("prev_state=");
		size_t len = strcspn(p, " ");
		if (len && len < size) {
			memcpy(name, p, len);
			name[len] = 0;
			return;
		}
	}
	if (!value)
		snprintf(name, size, "R");
	else
		snprintf(name, size, "0x%llx", (unsigned long long)value);
}

static unsigned state_of(struct offcpu *o, uint64_t value, const uint8_t *raw, size_t raw_size)
{
	for (unsigned i = 0; i < o->nr_states; i++)
		if (o->state_values[i] == value)
			return i;
	if (o->nr_states == MAX_STATES)
		return MAX_STATES - 1;
	unsigned i = o->nr_states++;
	o->state_values[i] = value;
	name_state(o, value, raw, raw_size, o->state_names[i], sizeof(o->state_names[i]));
	char c = o->state_names[i][0];
	/* R, R+: runnable (preempted); X, Z: dead, it never runs again */
	o->state_charged[i] = c == 'R' ? o->preempted : c != 'X' && c != 'Z';
	return i;
}

int offcpu_decode(struct offcpu *o, const uint8_t *raw, size_t raw_size, struct offcpu_switch *sw)
{
	uint64_t prev, next, state;
	if (tp_field_u64(o->prev_pid, raw, raw_size, &prev) ||
	    tp_field_u64(o->next_pid, raw, raw_size, &next) ||
	    tp_field_u64(o->prev_state, raw, raw_size, &state))
		return -1;
	sw->prev_tid = (int32_t)prev;
	sw->next_tid = (int32_t)next;
	sw->state = state_of(o, state, raw, raw_size);
	sw->charged = o->state_charged[sw->state];
	return 0;
}

static struct offcpu_thread *thread_of(struct offcpu *o, int32_t tid, int create)
{
	if (!create) {
		int64_t i = hashmap_find_u64(&o->tids, (uint64_t)(uint32_t)tid);
		return i < 0 ? NULL : &o->threads[i];
	}
	int created;
	size_t i = hashmap_intern_u64(&o->tids, (uint64_t)(uint32_t)tid, &created);
	if (i >= o->cap_threads) {
		o->cap_threads = o->cap_threads ? 2 * o->cap_threads : 256;
		o->threads = xrealloc(o->threads, o->cap_threads * sizeof(*o->threads));
	}
	if (created)
		memset(&o->threads[i], 0, sizeof(o->threads[i]));
	return &o->threads[i];
}

/* Whether [LO, HI] has a part inside the slice (a point: lies in it); always without
 * one.  The warnings count only what touches the slice the user asked for. */
static int touches_slice(const struct offcpu *o, uint64_t lo, uint64_t hi)
{
	if (!o->slice)
		return 1;
	for (size_t i = 0; i < o->nr_slice; i++) {
		const struct offcpu_range *r = &o->slice[i];
		if (lo == hi ? r->start <= lo && lo < r->end : lo < r->end && hi > r->start)
			return 1;
	}
	return 0;
}

/* the part of [LO, HI) inside the slice, in ns */
static uint64_t ns_in_slice(const struct offcpu *o, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return 0;
	if (!o->slice)
		return hi - lo;
	uint64_t ns = 0;
	for (size_t i = 0; i < o->nr_slice; i++) {
		uint64_t a = lo > o->slice[i].start ? lo : o->slice[i].start;
		uint64_t b = hi < o->slice[i].end ? hi : o->slice[i].end;
		if (b > a)
			ns += b - a;
	}
	return ns;
}

enum interval_end { END_SWITCH_IN, END_SAMPLE, END_AT_END };

static void end_interval(struct offcpu *o, struct offcpu_thread *t, uint64_t time,
			 enum interval_end how)
{
	uint64_t ns = time < t->out_time ? 0 : time - t->out_time;
	t->off = 0;
	if (touches_slice(o, t->out_time, t->out_time + ns)) {
		o->counts.intervals++;
		o->counts.backwards += time < t->out_time;
		o->counts.by_sample += how == END_SAMPLE;
		o->counts.at_end += how == END_AT_END;
	}
	if (!o->slice) {
		o->charge(o->ctx, t->stack, t->state, t->out_time, ns);
		return;
	}
	/* each overlap with a range of the slice: an interval spanning ranges is charged
	 * for each of them, the gaps between not at all */
	for (size_t i = 0; i < o->nr_slice && ns; i++) {
		uint64_t lo = t->out_time > o->slice[i].start ? t->out_time : o->slice[i].start;
		uint64_t hi = time < o->slice[i].end ? time : o->slice[i].end;
		if (hi > lo)
			o->charge(o->ctx, t->stack, t->state, lo, hi - lo);
	}
}

/* the end of a wait whose switch-out had no sched_switch sample: counted, with its time
 * inside the slice, when it touches the slice */
static void end_unsampled(struct offcpu *o, struct offcpu_thread *t, uint64_t time)
{
	t->unsampled = 0;
	uint64_t hi = time > t->unsampled_time ? time : t->unsampled_time;
	if (!touches_slice(o, t->unsampled_time, hi))
		return;
	o->counts.unsampled++;
	o->counts.unsampled_ns += ns_in_slice(o, t->unsampled_time, hi);
}

void offcpu_seen(struct offcpu *o, uint64_t time)
{
	if (time > o->last_time)
		o->last_time = time;
}

void offcpu_switch_in(struct offcpu *o, int32_t tid, uint64_t time)
{
	offcpu_seen(o, time);
	struct offcpu_thread *t = thread_of(o, tid, 0);
	if (!t)
		return;
	if (t->off)
		end_interval(o, t, time, END_SWITCH_IN);
	if (t->unsampled)
		end_unsampled(o, t, time);
	t->sampled_out = 0;
}

void offcpu_switch_out(struct offcpu *o, int32_t tid, uint64_t time, int preempt)
{
	offcpu_seen(o, time);
	struct offcpu_thread *t = thread_of(o, tid, 1);
	if (t->sampled_out) {
		t->sampled_out = 0;
		return;
	}
	/* The kernel wrote the switch record but not the sched_switch sample (seen under
	 * load): the thread's wait has no stack.  Counted, so the loss is said. */
	if (preempt && !o->preempted)
		return;
	if (t->unsampled) /* out again, no switch-in seen: it ran in between */
		end_unsampled(o, t, time);
	t->unsampled = 1;
	t->unsampled_time = time;
}

void offcpu_sample(struct offcpu *o, int32_t tid, uint64_t time)
{
	offcpu_seen(o, time);
	struct offcpu_thread *t = thread_of(o, tid, 0);
	if (t && t->off)
		end_interval(o, t, time, END_SAMPLE);
}

void offcpu_switch(struct offcpu *o, const struct offcpu_switch *sw, uint64_t time, uint64_t stack)
{
	/* a switch-out of a thread still off: it ran in between, unseen */
	offcpu_sample(o, sw->prev_tid, time);
	struct offcpu_thread *t = thread_of(o, sw->prev_tid, 1);
	t->sampled_out = 1;
	if (sw->charged) {
		t->off = 1;
		t->out_time = time;
		t->stack = stack;
		t->state = sw->state;
	} else {
		o->counts.skipped++;
	}
	offcpu_switch_in(o, sw->next_tid, time);
}

void offcpu_finish(struct offcpu *o)
{
	for (size_t i = 0; i < hashmap_count(&o->tids); i++) {
		struct offcpu_thread *t = &o->threads[i];
		if (t->off)
			end_interval(o, t, o->last_time, END_AT_END);
		if (t->unsampled)
			end_unsampled(o, t, o->last_time);
	}
}

const char *offcpu_state_name(const struct offcpu *o, unsigned state)
{
	return state < o->nr_states ? o->state_names[state] : "?";
}

const struct offcpu_counts *offcpu_counts(const struct offcpu *o)
{
	return &o->counts;
}
