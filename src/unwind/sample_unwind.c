/* sample_unwind.c - DWARF call graphs for perf.data samples (see sample_unwind.h). */
#include "unwind/sample_unwind.h"

#include <string.h>

#include "base/xalloc.h"
#include "symbol/symbol_store.h"

#define SAMPLE_UNWIND_MAX_FRAMES 1024
/* Open module files kept over all processes: beyond this, the processes unwound least
 * recently lose their unwinder (made again if they show up later).  A recording of a
 * build has thousands of processes, and the fd limit is often 1024. */
#define SAMPLE_UNWIND_MODULE_BUDGET 384

struct process_unwinder {
	int32_t pid;
	int used;                /* the slot belongs to PID (u may have been evicted) */
	struct unwinder *u;
	size_t nr_modules;       /* u's modules when last counted */
	uint64_t last_use;
	struct unwinder_stats evicted; /* counters of unwinders freed for this pid */
};

/* The recorded build-id of each map object, found once (objects are numbered densely). */
struct object_build_id {
	int looked_up;
	const struct perf_build_id_entry *entry; /* NULL: none recorded */
};

struct sample_unwinder {
	struct machine *machine;
	const struct perf_header_info *hdr;
	enum unwind_arch arch;
	struct process_unwinder *procs; /* open addressing on pid; slots are never freed */
	size_t nr_procs, cap_procs;
	size_t nr_modules;             /* sum of procs[].nr_modules */
	size_t module_budget;
	int libdwfl_only;
	char *root_dir;                /* the unwinders' options (NULL: none, the default) */
	char *buildid_dir;
	int root_flat;
	uint64_t clock;                /* samples unwound, for least-recently-used */
	struct object_build_id *ids;
	size_t cap_ids;
	const struct thread *thread;   /* the sample being unwound */
	struct unwind_frame frames[SAMPLE_UNWIND_MAX_FRAMES];
	struct unwind_result last;
	uint64_t *chain;               /* for sample_unwind_chain() */
	size_t cap_chain;
};

static const struct perf_build_id_entry *object_build_id(struct sample_unwinder *su,
							 const struct map_object *obj)
{
	struct object_build_id *b;

	if (obj->id >= su->cap_ids) {
		size_t cap = su->cap_ids ? su->cap_ids : 64;

		while (cap <= obj->id)
			cap *= 2;
		su->ids = xrealloc(su->ids, cap * sizeof(*su->ids));
		memset(su->ids + su->cap_ids, 0, (cap - su->cap_ids) * sizeof(*su->ids));
		su->cap_ids = cap;
	}
	b = &su->ids[obj->id];
	if (!b->looked_up) {
		b->looked_up = 1;
		for (size_t i = 0; i < su->hdr->nr_build_ids; i++)
			if (su->hdr->build_ids[i].path &&
			    !strcmp(su->hdr->build_ids[i].path, obj->name)) {
				b->entry = &su->hdr->build_ids[i];
				break;
			}
	}
	return b->entry;
}

static int find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	struct sample_unwinder *su = arg;
	const struct map_entry *e = machine_find_map(su->machine, su->thread, PERF_MISC_USER, addr);
	const struct perf_build_id_entry *b;

	if (!e || e->obj->kernel)
		return 0;
	*out = (struct unwind_map){
		.path = e->obj->name,
		.start = e->start,
		.end = e->end,
		.pgoff = e->pgoff,
	};
	if (e->obj->dso) {
		/* the symbols' build-id and root: one choice of file per object */
		out->build_id = dso_recorded_build_id(e->obj->dso, &out->build_id_size);
		out->proc_root = dso_proc_root(e->obj->dso);
		return 1;
	}
	b = object_build_id(su, e->obj);
	out->build_id = b ? b->build_id : NULL;
	out->build_id_size = b ? b->size : 0;
	return 1;
}

struct sample_unwinder *sample_unwinder_new(struct machine *m, const struct perf_header_info *hdr,
					    const struct debug_paths *paths,
					    struct tephra_error *err)
{
	struct sample_unwinder *su;
	enum unwind_arch arch;

	if (unwind_arch_from_name(hdr->arch, &arch) != 0) {
		tephra_error_set(err, "DWARF unwinding of %s samples is not supported",
				 hdr->arch ? hdr->arch : "(no ARCH recorded)");
		return NULL;
	}
	su = xcalloc(1, sizeof(*su));
	su->machine = m;
	su->hdr = hdr;
	su->arch = arch;
	su->module_budget = SAMPLE_UNWIND_MODULE_BUDGET;
	if (paths && paths->root && paths->root[0]) {
		su->root_dir = xstrdup(paths->root);
		su->root_flat = paths->root_flat;
	}
	if (paths && paths->buildid_dir)
		su->buildid_dir = xstrdup(paths->buildid_dir);
	return su;
}

void sample_unwinder_free(struct sample_unwinder *su)
{
	if (!su)
		return;
	for (size_t i = 0; i < su->cap_procs; i++)
		if (su->procs[i].u)
			unwinder_free(su->procs[i].u);
	free(su->procs);
	free(su->ids);
	free(su->chain);
	free(su->root_dir);
	free(su->buildid_dir);
	free(su);
}

static size_t pid_slot(const struct process_unwinder *v, size_t cap, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);

	while (v[i].used && v[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return i;
}

static void add_stats(struct unwinder_stats *to, const struct unwinder_stats *st)
{
	to->nr_samples += st->nr_samples;
	for (size_t k = 0; k <= UNWIND_ERROR; k++)
		to->nr_by_status[k] += st->nr_by_status[k];
	to->nr_modules_reported += st->nr_modules_reported;
	to->nr_dwfl_rebuilds += st->nr_dwfl_rebuilds;
	to->nr_fast_walks += st->nr_fast_walks;
	if (st->max_stack_needed > to->max_stack_needed)
		to->max_stack_needed = st->max_stack_needed;
}

static void evict(struct sample_unwinder *su, struct process_unwinder *p)
{
	add_stats(&p->evicted, unwinder_stats(p->u));
	unwinder_free(p->u);
	p->u = NULL;
	su->nr_modules -= p->nr_modules;
	p->nr_modules = 0;
}

/* Keeps the open module files within budget, sparing KEEP (the process just unwound). */
static void enforce_budget(struct sample_unwinder *su, const struct process_unwinder *keep)
{
	while (su->nr_modules > su->module_budget) {
		struct process_unwinder *oldest = NULL;

		for (size_t i = 0; i < su->cap_procs; i++) {
			struct process_unwinder *p = &su->procs[i];

			if (p->u && p != keep && (!oldest || p->last_use < oldest->last_use))
				oldest = p;
		}
		if (!oldest)
			return;
		evict(su, oldest);
	}
}

static struct process_unwinder *process_unwinder(struct sample_unwinder *su, int32_t pid)
{
	struct unwinder_options opts = {
		.arch = su->arch, .find_map = find_map, .find_map_arg = su,
		.libdwfl_only = su->libdwfl_only,
		.root_dir = su->root_dir, .buildid_dir = su->buildid_dir,
		.root_flat = su->root_flat,
	};
	struct tephra_error err;
	size_t i;

	if (2 * (su->nr_procs + 1) > su->cap_procs) {
		size_t cap = su->cap_procs ? 2 * su->cap_procs : 64;
		struct process_unwinder *v = xcalloc(cap, sizeof(*v));

		for (size_t j = 0; j < su->cap_procs; j++)
			if (su->procs[j].used)
				v[pid_slot(v, cap, su->procs[j].pid)] = su->procs[j];
		free(su->procs);
		su->procs = v;
		su->cap_procs = cap;
	}
	i = pid_slot(su->procs, su->cap_procs, pid);
	if (!su->procs[i].used) {
		su->procs[i].used = 1;
		su->procs[i].pid = pid;
		su->nr_procs++;
	}
	if (!su->procs[i].u) {
		/* Only an unsupported arch fails, and that was checked in _new. */
		su->procs[i].u = unwinder_new(&opts, &err);
		if (!su->procs[i].u)
			return NULL;
	}
	return &su->procs[i];
}

int sample_has_user_stack(const struct perf_event_desc *desc, const struct perf_sample *s)
{
	/* perf unwinds nothing, not even the sampled ip, when the kernel could copy no
	 * stack (dyn_size 0: e.g. the sample hit a page fault on the stack itself) */
	return desc && (desc->attr.sample_type & PERF_ST_REGS_USER) &&
	       (desc->attr.sample_type & PERF_ST_STACK_USER) && s->user_regs &&
	       s->user_regs_abi != 0 && s->user_stack_size > 0 && s->user_stack_dyn_size > 0;
}

int sample_lost_user_stack(const struct perf_event_desc *desc, const struct perf_sample *s)
{
	return desc && (desc->attr.sample_type & PERF_ST_REGS_USER) &&
	       (desc->attr.sample_type & PERF_ST_STACK_USER) && s->user_regs &&
	       s->user_regs_abi != 0 && s->user_stack_size > 0 && s->user_stack_dyn_size == 0;
}

size_t sample_unwind_callchain(struct sample_unwinder *su, const struct thread *t,
			       const struct perf_sample *s, uint64_t *out, size_t max,
			       size_t max_user)
{
	struct unwind_sample_regs regs = {
		.tid = s->tid,
		.abi = s->user_regs_abi,
		.regs_mask = s->user_regs_mask,
		.regs = s->user_regs,
		.stack = s->user_stack,
		.stack_size = s->user_stack_size,
		.stack_dyn_size = s->user_stack_dyn_size,
	};
	struct process_unwinder *p;
	size_t n = 0;

	memset(&su->last, 0, sizeof(su->last));
	su->last.frames = su->frames;
	su->last.max_frames = max_user < SAMPLE_UNWIND_MAX_FRAMES ? max_user : SAMPLE_UNWIND_MAX_FRAMES;
	su->last.status = UNWIND_NO_REGS;
	for (uint64_t i = 0; i < s->nr_callchain && n < max; i++)
		out[n++] = s->callchain[i];
	if (n >= max || !t || !s->user_regs)
		return n;
	p = process_unwinder(su, (int32_t)t->pid);
	if (!p)
		return n;
	su->thread = t;
	unwinder_walk(p->u, &regs, &su->last);
	su->thread = NULL;
	p->last_use = ++su->clock;
	su->nr_modules -= p->nr_modules;
	p->nr_modules = unwinder_nr_modules(p->u);
	su->nr_modules += p->nr_modules;
	enforce_budget(su, p);
	if (su->last.nr_frames == 0)
		return n;
	out[n++] = PERF_CONTEXT_USER;
	for (size_t i = 0; i < su->last.nr_frames && n < max; i++)
		out[n++] = unwind_frame_perf_pc(&su->frames[i], i);
	return n;
}

const uint64_t *sample_unwind_chain(struct sample_unwinder *su, const struct thread *t,
				    const struct perf_sample *s, size_t max_user, uint64_t *nr)
{
	size_t need;

	if (max_user > SAMPLE_UNWIND_MAX_FRAMES)
		max_user = SAMPLE_UNWIND_MAX_FRAMES;
	/* nr_callchain was checked against the record's size by the reader */
	need = (size_t)s->nr_callchain + 1 + max_user;
	if (need > su->cap_chain) {
		su->cap_chain = need + 64;
		su->chain = xrealloc(su->chain, su->cap_chain * sizeof(*su->chain));
	}
	*nr = sample_unwind_callchain(su, t, s, su->chain, need, max_user);
	return su->chain;
}

void sample_unwinder_set_libdwfl_only(struct sample_unwinder *su, int on)
{
	su->libdwfl_only = on;
}

void sample_unwinder_set_module_budget(struct sample_unwinder *su, size_t budget)
{
	su->module_budget = budget;
}

const struct unwind_result *sample_unwinder_last(const struct sample_unwinder *su)
{
	return &su->last;
}

void sample_unwinder_stats(const struct sample_unwinder *su, struct unwinder_stats *out,
			   size_t *nr_processes)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < su->cap_procs; i++) {
		if (!su->procs[i].used)
			continue;
		add_stats(out, &su->procs[i].evicted);
		if (su->procs[i].u)
			add_stats(out, unwinder_stats(su->procs[i].u));
	}
	*nr_processes = su->nr_procs;
}
