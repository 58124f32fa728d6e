/* perf_session.c - the record loop shared by script and fold (see perf_session.h). */
#include "session/perf_session.h"

#include <stdlib.h>
#include <string.h>


int perf_session_open(struct perf_session *s, const char *path, const struct symbol_options *sym,
		      const struct tephra_report *report, int strict, struct tephra_error *err)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->report = report;
	s->progress = report && report->progress;
	struct perf_reader_options ro = { 0 };
	ro.report = report;
	ro.lenient = !strict;
	struct symbol_options defaults = { 0 };
	if (!sym)
		sym = &defaults;
	ro.force = sym->force;
	/* the places the user named are checked before any output */
	if (symbol_options_check(sym, err))
		return -1;
	if (perf_reader_open(&s->reader, path, &ro, err))
		return -1;

	s->store = symbol_store_new(sym);
	symbol_store_set_report(s->store, report);
	const struct perf_header_info *h = perf_reader_header(s->reader);
	s->machine = machine_new(s->store, h->build_ids, h->nr_build_ids);
	/* perf names the idle task before any record does */
	machine_comm(s->machine, 0, 0, "swapper", 0);
	frame_resolver_init(&s->resolver, s->machine);
	struct tephra_error unsupported; /* such samples keep their recorded chain only */
	s->unwinder = sample_unwinder_new(s->machine, h, symbol_store_debug_paths(s->store),
					    &unsupported);
	s->max_stack = PERF_SCRIPT_MAX_STACK;
	hashmap_init(&s->read_values);
	if (symbol_store_read_kallsyms(s->store, err)) {
		perf_session_close(s);
		return -1;
	}
	return 0;
}

int perf_session_refuse_unfinished(const struct perf_session *s, struct tephra_error *err)
{
	if (!perf_reader_header(s->reader)->unfinished)
		return 0;
	tephra_error_at(err, s->path, 48, "data size 0 in the header: perf record did not "
			"finish (killed?)");
	return -1;
}

void perf_session_end_progress(struct perf_session *s)
{
	if (s->progress)
		tephra_progress_end(s->report);
	s->progress = 0;
}

void perf_session_close(struct perf_session *s)
{
	perf_session_end_progress(s);
	frame_resolver_release(&s->resolver);
	sample_unwinder_free(s->unwinder);
	machine_free(s->machine);
	hashmap_release(&s->read_values);
	if (s->store)
		symbol_store_free(s->store);
	if (s->reader)
		perf_reader_close(s->reader);
	memset(s, 0, sizeof(*s));
}

/* The READ block's counter values: per value its id and count.  Returns how many
 * (at most MAX), 0 when the block does not hold what read_format says. */
static size_t read_values(const struct perf_attr *a, const struct perf_sample *smp,
			  uint64_t *ids, uint64_t *values, size_t max)
{
	uint64_t rf = a->read_format, per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t words = smp->read_size / 8, nr = 1, first;
	uint64_t w[3 + 3 * 64];
	if (!smp->read || !(rf & PERF_FORMAT_ID) || words > sizeof(w) / sizeof(w[0]))
		return 0;
	memcpy(w, smp->read, words * 8);
	if (rf & PERF_FORMAT_GROUP) {
		/* nr, [enabled], [running], then nr × { value, id, [lost] } */
		nr = w[0];
		first = 1 + times;
	} else {
		/* value, [enabled], [running], id, [lost] */
		first = 0;
		per += times;
	}
	if (nr > max || first + nr * per > words)
		return 0;
	for (uint64_t i = 0; i < nr; i++) {
		const uint64_t *v = w + first + i * per;
		values[i] = v[0];
		ids[i] = (rf & PERF_FORMAT_GROUP) ? v[1] : v[1 + times];
	}
	return (size_t)nr;
}

/* PERF_SAMPLE_READ: the samples perf makes of one record, one per counter read that
 * grew since its last read (the counter's own event, the increase as period); the
 * values are remembered for every record, before any filter, as perf does.  Returns
 * how many, with their event indexes, periods and ids. */
static size_t read_members(struct perf_session *s, const struct perf_event *ev,
			   long *index, uint64_t *period, uint64_t *id, size_t max)
{
	uint64_t values[64];
	size_t nr = read_values(&ev->desc->attr, &ev->u.sample, id, values, max), k = 0;
	for (size_t i = 0; i < nr; i++) {
		long ix = perf_reader_event_by_id(s->reader, id[i]);
		size_t slot;
		if (ix < 0)
			continue;
		slot = hashmap_intern_hashed(&s->read_values, &id[i], 8, hash_u64(id[i]), NULL);
		uint64_t delta = values[i] - hashmap_entry(&s->read_values, slot)->value;
		hashmap_entry(&s->read_values, slot)->value = values[i];
		if (!delta)
			continue;
		index[k] = ix;
		period[k] = delta;
		id[k] = id[i];
		k++;
	}
	return k;
}

int perf_session_run(struct perf_session *s, const struct sample_filter *f,
		     int (*on_sample)(void *arg, struct perf_session *s,
				      const struct perf_session_sample *ps),
		     void *arg, struct tephra_error *err)
{
	struct perf_event ev;
	unsigned char *events; /* --event: the event indexes kept */
	int rc;
	struct sample_time_range *times;
	size_t nr_times;
	if (sample_filter_events(f, s->reader, s->path, &events, err))
		return -1;
	if (sample_filter_times(f, s->reader, s->path, &times, &nr_times, err)) {
		free(events);
		return -1;
	}
	while ((rc = perf_reader_next(s->reader, &ev, err)) > 0) {
		if (ev.type != PERF_REC_SAMPLE) {
			machine_process_event(s->machine, &ev);
			if (s->on_record)
				s->on_record(s->record_arg, &ev);
			continue;
		}
		struct perf_session_sample ps;
		ev.u.sample.period = perf_sample_period(&ev);
		/* the samples this record stands for: itself, or its counter reads */
		long index[64];
		uint64_t period[64], id[64];
		size_t nr = 1, kept = 0;
		index[0] = ev.desc ? (long)ev.desc_index : -1;
		period[0] = ev.u.sample.period;
		id[0] = ev.u.sample.id;
		if (ev.desc && (ev.desc->attr.sample_type & PERF_ST_READ))
			nr = read_members(s, &ev, index, period, id, 64);
		for (size_t i = 0; i < nr; i++)
			if (index[i] >= 0 && (!events || events[index[i]]))
				kept++;
		if (!kept || !sample_filter_time_keeps(times, nr_times, ev.u.sample.time))
			continue;
		ps.ev = &ev;
		ps.cpumode = ev.misc & PERF_MISC_CPUMODE_MASK;
		/* A guest's addresses mean nothing in the host's maps: perf script and perf
		 * report hide its samples (the reader counts them for stat and the block). */
		if ((ps.cpumode == PERF_MISC_GUEST_KERNEL || ps.cpumode == PERF_MISC_GUEST_USER) &&
		    !(f && f->guest))
			continue;
		ps.thread = machine_findnew_thread(s->machine, (int32_t)ev.u.sample.pid,
						   (int32_t)ev.u.sample.tid);
		if (!sample_filter_keeps(f, ps.thread))
			continue;
		/* --call-graph dwarf: the recorded chain is the kernel part; add the user
		 * frames unwound from the sample's registers and stack, as perf does */
		ps.unwound = s->unwinder && sample_has_user_stack(ev.desc, &ev.u.sample);
		if (ps.unwound)
			ev.u.sample.callchain = sample_unwind_chain(s->unwinder, ps.thread, &ev.u.sample,
								    s->max_stack,
								    &ev.u.sample.nr_callchain);
		struct perf_sample member = ev.u.sample;
		int stop = 0;
		for (size_t i = 0; i < nr && !stop; i++) {
			if (index[i] < 0 || (events && !events[index[i]]))
				continue;
			member.period = period[i];
			member.id = id[i];
			ps.sample = &member;
			ps.desc = perf_reader_event(s->reader, (size_t)index[i]);
			ps.event_index = (size_t)index[i];
			stop = on_sample(arg, s, &ps);
		}
		if (stop)
			break;
	}
	free(events);
	free(times);
	return rc < 0 ? -1 : 0;
}
