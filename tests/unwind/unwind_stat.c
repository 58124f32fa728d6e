/* unwind_stat.c - the stack-quality section for DWARF call graphs, in one pass. */
#include "unwind_stat.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "machine/machine.h"
#include "unwind/sample_unwind.h"
#include "quality/unwind_quality.h"

struct unwind_stat_pass {
	struct machine *machine;
	struct sample_unwinder *unwinder;
	struct unwind_quality *quality;
};

struct unwind_stat_pass *unwind_stat_pass_new(const struct perf_header_info *hdr)
{
	struct unwind_stat_pass *p = xcalloc(1, sizeof(*p));
	struct tephra_error unsupported;

	p->machine = machine_new(NULL, hdr->build_ids, hdr->nr_build_ids);
	p->unwinder = sample_unwinder_new(p->machine, hdr, NULL, &unsupported);
	if (!p->unwinder) {
		machine_free(p->machine);
		free(p);
		return NULL;
	}
	p->quality = unwind_quality_new();
	return p;
}

void unwind_stat_pass_event(struct unwind_stat_pass *p, const struct perf_event *ev)
{
	const struct perf_sample *s = &ev->u.sample;
	uint64_t nr;

	if (ev->type != PERF_REC_SAMPLE) {
		machine_process_event(p->machine, ev);
		return;
	}
	if (!sample_has_user_stack(ev->desc, s))
		return;
	sample_unwind_chain(p->unwinder,
			    machine_findnew_thread(p->machine, (int32_t)s->pid, (int32_t)s->tid), s,
			    SAMPLE_UNWIND_DEFAULT_MAX_USER, &nr);
	unwind_quality_add(p->quality, sample_unwinder_last(p->unwinder), s->user_stack_size);
}

void unwind_stat_pass_print(const struct unwind_stat_pass *p, FILE *out)
{
	unwind_quality_print(p->quality, out);
}

void unwind_stat_pass_free(struct unwind_stat_pass *p)
{
	if (!p)
		return;
	unwind_quality_free(p->quality);
	sample_unwinder_free(p->unwinder);
	machine_free(p->machine);
	free(p);
}
