/* frame_resolver.c - sample frames and cached symbols (see frame_resolver.h). */
#include "perfscript/frame_resolver.h"

#include <string.h>

#include "perfdata/perf_record_reader.h"

void frame_resolver_init(struct frame_resolver *r, struct machine *m)
{
	memset(r, 0, sizeof(*r));
	r->machine = m;
	hashmap_init(&r->sym_cache);
}

void frame_resolver_release(struct frame_resolver *r)
{
	hashmap_release(&r->sym_cache);
}

void frame_resolve(const struct frame_resolver *r, const struct thread *t, unsigned cpumode,
		   uint64_t ip, struct frame *out)
{
	const struct map_entry *e = machine_find_map(r->machine, t, cpumode, ip);
	out->ip = ip;
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
			       struct frame *out)
{
	unsigned cpumode = PERF_MISC_USER;
	size_t n = 0;
	for (uint64_t i = 0; i < nr && n < max_stack; i++) {
		uint64_t ip = chain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_MISC_USER;
			else if (ip == PERF_CONTEXT_HV)
				cpumode = PERF_MISC_HYPERVISOR;
			else
				return 0; /* perf drops the whole chain on a marker it does not know */
			continue;
		}
		frame_resolve(r, t, cpumode, ip, &out[n++]);
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
