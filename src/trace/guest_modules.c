/* guest_modules.c - mapped guest ELF files with load biases (see guest_modules.h). */
#include "trace/guest_modules.h"

#include <string.h>

static unsigned count(const struct guest_modules *m)
{
	return __atomic_load_n(&m->n, __ATOMIC_ACQUIRE);
}

static struct guest_module *next_slot(struct guest_modules *m)
{
	unsigned n = m->n;
	if (n >= GUEST_MAX_MODULES)
		return NULL;
	memset(&m->mods[n], 0, sizeof(m->mods[n]));
	return &m->mods[n];
}

static void publish(struct guest_modules *m)
{
	__atomic_store_n(&m->n, m->n + 1, __ATOMIC_RELEASE);
}

void guest_modules_add_anon(struct guest_modules *m, uint64_t lo, uint64_t hi)
{
	struct guest_module *g = next_slot(m);
	if (!g)
		return;
	g->lo = lo;
	g->hi = hi;
	publish(m);
}

const struct guest_module *guest_modules_add_elf(struct guest_modules *m, const char *path,
						 uint64_t map_start, uint64_t map_end,
						 uint64_t map_offset, struct tephra_error *err)
{
	struct guest_module *g = next_slot(m);
	if (!g) {
		tephra_error_at(err, path, -1, "too many modules (%d)", GUEST_MAX_MODULES);
		return NULL;
	}
	if (guest_elf_open(&g->elf, path, err) != 0) {
		guest_modules_add_anon(m, map_start, map_end);
		return NULL;
	}
	/* The executable segment that this mapping shows: p_offset maps to p_vaddr. */
	const struct guest_segment *seg = NULL;
	for (size_t i = 0; i < g->elf.nsegs; i++) {
		const struct guest_segment *s = &g->elf.segs[i];
		if (map_offset >= (s->offset & ~(uint64_t)0xfff) && map_offset < s->offset + s->size) {
			seg = s;
			break;
		}
	}
	if (!seg && g->elf.nsegs)
		seg = &g->elf.segs[0];
	g->bias = seg ? (int64_t)(map_start + (seg->offset - map_offset) - seg->vaddr) : 0;
	g->lo = UINT64_MAX;
	g->hi = 0;
	for (size_t i = 0; i < g->elf.nsegs; i++) {
		uint64_t lo = g->elf.segs[i].vaddr + (uint64_t)g->bias;
		uint64_t hi = lo + g->elf.segs[i].size;
		if (lo < g->lo)
			g->lo = lo;
		if (hi > g->hi)
			g->hi = hi;
	}
	if (g->lo >= g->hi) {
		g->lo = map_start;
		g->hi = map_end;
	}
	g->has_elf = 1;
	publish(m);
	return g;
}

const struct guest_module *guest_modules_find(const struct guest_modules *m, uint64_t addr)
{
	unsigned n = count(m);
	for (unsigned i = 0; i < n; i++)
		if (addr >= m->mods[i].lo && addr < m->mods[i].hi)
			return &m->mods[i];
	return NULL;
}

int guest_modules_func_of(void *ctx, uint64_t addr, uint64_t *start)
{
	const struct guest_module *g = guest_modules_find(ctx, addr);
	if (!g || !g->has_elf)
		return 0;
	const struct guest_func *f = guest_syms_find(&g->elf.syms, addr - (uint64_t)g->bias);
	if (!f)
		return 0;
	*start = f->start + (uint64_t)g->bias;
	return 1;
}

const char *guest_modules_name(void *ctx, uint64_t start)
{
	const struct guest_module *g = guest_modules_find(ctx, start);
	if (!g || !g->has_elf)
		return NULL;
	const struct guest_func *f = guest_syms_by_start(&g->elf.syms, start - (uint64_t)g->bias);
	return f ? f->name : NULL;
}
