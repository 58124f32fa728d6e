/* perf_session.c - the record loop shared by script and fold (see perf_session.h). */
#include "session/perf_session.h"

#include <stdlib.h>
#include <string.h>


int perf_session_open(struct perf_session *s, const char *path, const struct symbol_options *sym,
		      const struct tephra_report *report, struct tephra_error *err)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->report = report;
	s->progress = report && report->progress;
	struct perf_reader_options ro = { 0 };
	ro.report = report;
	if (perf_reader_open(&s->reader, path, &ro, err))
		return -1;
	struct symbol_options defaults = { 0 };
	s->store = symbol_store_new(sym ? sym : &defaults);
	const struct perf_header_info *h = perf_reader_header(s->reader);
	s->machine = machine_new(s->store, h->build_ids, h->nr_build_ids);
	/* perf names the idle task before any record does */
	machine_comm(s->machine, 0, 0, "swapper", 0);
	frame_resolver_init(&s->resolver, s->machine);
	struct tephra_error unsupported; /* such samples keep their recorded chain only */
	s->unwinder = sample_unwinder_new(s->machine, h, &unsupported);
	s->max_stack = PERF_SCRIPT_MAX_STACK;
	return 0;
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
	if (s->store)
		symbol_store_free(s->store);
	if (s->reader)
		perf_reader_close(s->reader);
	memset(s, 0, sizeof(*s));
}

int perf_session_run(struct perf_session *s, const struct sample_filter *f,
		     int (*on_sample)(void *arg, struct perf_session *s,
				      const struct perf_session_sample *ps),
		     void *arg, struct tephra_error *err)
{
	struct perf_event ev;
	unsigned char *events; /* --event: the event indexes kept */
	int rc;
	if (sample_filter_events(f, s->reader, s->path, &events, err))
		return -1;
	while ((rc = perf_reader_next(s->reader, &ev, err)) > 0) {
		if (ev.type != PERF_REC_SAMPLE) {
			machine_process_event(s->machine, &ev);
			continue;
		}
		struct perf_session_sample ps;
		/* perf: without PERIOD in the samples every sample has the attr's fixed period */
		if (ev.desc && !(ev.desc->attr.sample_type & PERF_ST_PERIOD) &&
		    !(ev.desc->attr.flags & PERF_ATTR_FLAG_FREQ))
			ev.u.sample.period = ev.desc->attr.sample_period_or_freq;
		ps.ev = &ev;
		ps.sample = &ev.u.sample;
		ps.desc = ev.desc;
		ps.event_index = ev.desc_index;
		ps.cpumode = ev.misc & PERF_MISC_CPUMODE_MASK;
		ps.thread = machine_findnew_thread(s->machine, (int32_t)ev.u.sample.pid,
						   (int32_t)ev.u.sample.tid);
		if (events && (!ev.desc || !events[ev.desc_index]))
			continue;
		if (!sample_filter_keeps(f, ps.thread))
			continue;
		/* --call-graph dwarf: the recorded chain is the kernel part; add the user
		 * frames unwound from the sample's registers and stack, as perf does */
		ps.unwound = s->unwinder && sample_has_user_stack(ev.desc, &ev.u.sample);
		if (ps.unwound)
			ev.u.sample.callchain = sample_unwind_chain(s->unwinder, ps.thread, &ev.u.sample,
								    s->max_stack,
								    &ev.u.sample.nr_callchain);
		if (on_sample(arg, s, &ps))
			break;
	}
	free(events);
	return rc < 0 ? -1 : 0;
}
