/* frame_resolver.c - sample frames and cached symbols (see frame_resolver.h). */
#include "session/frame_resolver.h"

#include <string.h>

#include "base/xalloc.h"
#include "perfdata/perf_reader.h"

/* The inline entries of one (object, address). */
struct inline_list {
	size_t n;
	const char **names;
	unsigned char *inlined;
	const char **srclines;   /* perf's -F srcline text of each entry */
};

void frame_resolver_init(struct frame_resolver *r, struct machine *m)
{
	memset(r, 0, sizeof(*r));
	r->machine = m;
	hashmap_init(&r->sym_cache);
	hashmap_init(&r->inline_cache);
}

void frame_resolver_release(struct frame_resolver *r)
{
	hashmap_release(&r->sym_cache);
	hashmap_release(&r->inline_cache);
	for (size_t i = 0; i < r->nr_inline_lists; i++) {
		for (size_t j = 0; j < r->inline_lists[i].n; j++) {
			free((char *)r->inline_lists[i].names[j]);
			free((char *)r->inline_lists[i].srclines[j]);
		}
		free(r->inline_lists[i].names);
		free(r->inline_lists[i].srclines);
		free(r->inline_lists[i].inlined);
	}
	free(r->inline_lists);
}

static void add_inline(void *arg, const char *name, int inlined, const char *srcline)
{
	struct inline_list *l = arg;
	l->names = xrealloc(l->names, (l->n + 1) * sizeof(*l->names));
	l->inlined = xrealloc(l->inlined, l->n + 1);
	l->srclines = xrealloc(l->srclines, (l->n + 1) * sizeof(*l->srclines));
	l->names[l->n] = xstrdup(name);
	l->srclines[l->n] = xstrdup(srcline);
	l->inlined[l->n++] = (unsigned char)(inlined != 0);
}

size_t frame_inlines(struct frame_resolver *r, const struct frame *f, const char *const **names,
		     const unsigned char **inlined)
{
	const char *const *srclines;
	return frame_inlines_src(r, f, names, inlined, &srclines);
}

size_t frame_inlines_src(struct frame_resolver *r, const struct frame *f,
			 const char *const **names, const unsigned char **inlined,
			 const char *const **srclines)
{
	/* perf expands only frames it unwound itself, and only when it knows the symbol */
	if (!f->unwound || !f->obj || !f->obj->dso || f->obj->kernel || !frame_symbol(r, f))
		return 0;
	uint64_t key[2] = { f->obj->id, f->addr };
	int created;
	size_t i = hashmap_intern(&r->inline_cache, key, sizeof(key), &created);
	struct hashmap_entry *e = hashmap_entry(&r->inline_cache, i);
	if (created) {
		if (r->nr_inline_lists == r->cap_inline_lists) {
			r->cap_inline_lists = r->cap_inline_lists ? 2 * r->cap_inline_lists : 64;
			r->inline_lists = xrealloc(r->inline_lists,
						   r->cap_inline_lists * sizeof(*r->inline_lists));
		}
		struct inline_list *l = &r->inline_lists[r->nr_inline_lists];
		memset(l, 0, sizeof(*l));
		dso_inline_chain_srclines(f->obj->dso, f->addr, add_inline, l);
		e->value = r->nr_inline_lists++;
	}
	const struct inline_list *l = &r->inline_lists[e->value];
	*names = l->names;
	*inlined = l->inlined;
	*srclines = l->srclines;
	return l->n;
}

void frame_resolve(const struct frame_resolver *r, const struct thread *t, unsigned cpumode,
		   uint64_t ip, struct frame *out)
{
	const struct map_entry *e = machine_find_map(r->machine, t, cpumode, ip);
	out->ip = ip;
	out->unwound = 0;
	if (!e) {
		out->obj = NULL;
		out->addr = ip;
		return;
	}
	out->obj = e->obj;
	out->addr = e->obj->kernel ? ip : map_entry_map_ip(e, ip);
}

void frame_resolve_sample_ip(const struct frame_resolver *r, const struct thread *t,
			     unsigned cpumode, uint64_t ip, struct frame *out)
{
	frame_resolve(r, t, cpumode, ip, out);
	if (out->obj || (cpumode != PERF_MISC_KERNEL && cpumode != PERF_MISC_USER))
		return;
	/* perf: try the address space the address itself belongs to (top half: kernel) */
	unsigned other = (ip >> 63) ? PERF_MISC_KERNEL : PERF_MISC_USER;
	if (other != cpumode)
		frame_resolve(r, t, other, ip, out);
}

size_t frame_resolve_callchain(const struct frame_resolver *r, const struct thread *t,
			       const uint64_t *chain, uint64_t nr, size_t max_stack,
			       int unwound, struct frame *out)
{
	unsigned cpumode = PERF_MISC_USER;
	size_t n = 0, budget_start = 0;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = chain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER) {
				cpumode = PERF_MISC_USER;
				/* perf unwinds up to MAX_STACK user frames after the recorded
				 * (kernel) part, whatever that part used */
				if (unwound)
					budget_start = n;
			} else if (ip == PERF_CONTEXT_HV)
				cpumode = PERF_MISC_HYPERVISOR;
			else
				return 0; /* perf drops the whole chain on a marker it does not know */
			continue;
		}
		if (n - budget_start >= max_stack) {
			if (unwound && cpumode != PERF_MISC_USER)
				continue; /* the recorded part is full; the unwound part follows */
			break;
		}
		frame_resolve(r, t, cpumode, ip, &out[n]);
		out[n++].unwound = unwound && cpumode == PERF_MISC_USER;
	}
	return n;
}

const struct dso_symbol *frame_symbol(struct frame_resolver *r, const struct frame *f)
{
	if (!f->obj || !f->obj->dso)
		return NULL;
	uint64_t key[2] = { f->obj->id, f->addr };
	int created;
	size_t i = hashmap_intern(&r->sym_cache, key, sizeof(key), &created);
	struct hashmap_entry *e = hashmap_entry(&r->sym_cache, i);
	if (created)
		e->value = (uint64_t)(uintptr_t)dso_find_symbol(f->obj->dso, f->addr);
	return (const struct dso_symbol *)(uintptr_t)e->value;
}
