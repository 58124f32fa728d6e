/* stack_quality_file.c - the full stack-quality section of one perf.data file, for
 * `tephra stat` (see stack_quality.h): a perf_session pass that resolves every sample's
 * frames as `perf script` prints them and feeds stack_quality. */
#include "quality/stack_quality.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "session/perf_session.h"

struct quality_pass {
	struct stack_quality *q;
	struct frame *frames; /* room for 2 * PERF_SCRIPT_MAX_STACK (unwound chains) */
};

static int on_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	struct quality_pass *p = arg;
	const struct perf_sample *smp = ps->sample;
	size_t n;
	if (!ps->desc)
		return 0;
	if (ps->desc->attr.sample_type & PERF_ST_CALLCHAIN) {
		n = frame_resolve_callchain(&s->resolver, ps->thread, smp->callchain,
					    smp->nr_callchain, s->max_stack, ps->unwound, p->frames);
	} else {
		frame_resolve_sample_ip(&s->resolver, ps->thread, ps->cpumode, smp->ip, &p->frames[0]);
		n = 1;
	}
	unsigned flags = stack_quality_chain_flags(ps->desc, smp, ps->unwound, s->max_stack);
	stack_quality_count(p->q, stack_quality_stack(p->q, &s->resolver, p->frames, n, flags), 1);
	stack_quality_user_stack(p->q, ps->desc, smp, ps->unwound,
				 ps->unwound ? sample_unwinder_last(s->unwinder) : NULL);
	return 0;
}

int stack_quality_report_file(const char *path, int force, FILE *out, struct tephra_error *err)
{
	struct perf_session s;
	struct symbol_options sym = { .force = force };
	if (perf_session_open(&s, path, &sym, NULL, 1, err))
		return -1;
	s.max_stack = PERF_SCRIPT_MAX_STACK;
	struct quality_pass p = { stack_quality_new(),
				  xmalloc(2 * PERF_SCRIPT_MAX_STACK * sizeof(struct frame)) };
	int rc = perf_session_run(&s, NULL, on_sample, &p, err);
	if (!rc)
		stack_quality_print_full(p.q, stack_quality_kind(p.q, 0), perf_reader_stats(s.reader),
					 out);
	free(p.frames);
	stack_quality_free(p.q);
	perf_session_close(&s);
	return rc;
}
