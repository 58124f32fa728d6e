/* a2l_unit_index.c - a compile unit's functions, ranges and nesting, read once (see
 * a2l_unit_index.h). */
#include "symbol/a2l_unit_index.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct builder {
	struct a2l_unit_index *u;
	uint32_t cap_fns, cap_spans;
};

static int is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

static void add_span(struct builder *b, Dwarf_Addr lo, Dwarf_Addr hi, uint32_t fn,
		     int32_t parent)
{
	struct a2l_unit_index *u = b->u;
	if (u->nr_spans == b->cap_spans) {
		b->cap_spans = b->cap_spans ? 2 * b->cap_spans : 64;
		u->spans = xrealloc(u->spans, b->cap_spans * sizeof(*u->spans));
	}
	u->spans[u->nr_spans++] = (struct a2l_unit_span){ .lo = lo, .hi = hi, .fn = fn,
						     .parent = parent };
}

/* Adds the functions under PARENT (nested in function PARENT_FN, -1: none), as
 * addr2line's search meets them: through every DIE that is not a function, into a
 * function only if it has a range (one without never holds an address, so neither
 * does anything the search would reach through it). */
static void collect(struct builder *b, Dwarf_Die *parent, int32_t parent_fn)
{
	struct a2l_unit_index *u = b->u;
	Dwarf_Die child;
	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		if (!is_function(dwarf_tag(&child))) {
			if (dwarf_haschildren(&child))
				collect(b, &child, parent_fn);
			continue;
		}
		uint32_t fn = u->nr_fns, spans_before = u->nr_spans;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0)
			if (lo < hi)
				add_span(b, lo, hi, fn, parent_fn);
		if (u->nr_spans == spans_before)
			continue;
		if (u->nr_fns == b->cap_fns) {
			b->cap_fns = b->cap_fns ? 2 * b->cap_fns : 64;
			u->fns = xrealloc(u->fns, b->cap_fns * sizeof(*u->fns));
		}
		u->fns[u->nr_fns++] = (struct a2l_unit_fn){ .die = child, .parent = parent_fn };
		if (dwarf_haschildren(&child))
			collect(b, &child, (int32_t)fn);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Spans grouped by the function they are nested in (unit level first), then by lo. */
static int span_order(const void *a, const void *b)
{
	const struct a2l_unit_span *x = a, *y = b;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

void a2l_unit_index_build(struct a2l_unit_index *u, Dwarf_Die *cu)
{
	memset(u, 0, sizeof(*u));
	struct builder b = { .u = u };
	collect(&b, cu, -1);
	if (u->nr_spans) /* a unit without functions: spans is NULL */
		qsort(u->spans, u->nr_spans, sizeof(*u->spans), span_order);
	for (uint32_t i = 0; i < u->nr_spans;) {
		int32_t parent = u->spans[i].parent;
		uint32_t j = i;
		Dwarf_Addr max_hi = 0;
		for (; j < u->nr_spans && u->spans[j].parent == parent; j++) {
			if (u->spans[j].hi > max_hi)
				max_hi = u->spans[j].hi;
			u->spans[j].max_hi = max_hi;
		}
		if (parent < 0) {
			u->first_top = i;
			u->nr_top = j - i;
		} else {
			u->fns[parent].first_child = i;
			u->fns[parent].nr_children = j - i;
		}
		i = j;
	}
}

void a2l_unit_index_free(struct a2l_unit_index *u)
{
	free(u->fns);
	free(u->spans);
	memset(u, 0, sizeof(*u));
}

struct pick {
	int32_t fn;
	Dwarf_Addr len;
};

/* The spans FIRST..FIRST+NR-1 (one group) that hold ADDR, and what is nested in
 * their functions.  addr2line visits the functions in DIE order and keeps the one
 * with the smallest range, the later one on a tie: the same as the smallest range
 * with the highest DIE index, which needs no order of visit. */
static void pick_in(const struct a2l_unit_index *u, uint32_t first, uint32_t nr,
		    Dwarf_Addr addr, struct pick *p)
{
	uint32_t lo = first, hi = first + nr;
	while (lo < hi) { /* the spans with lo <= addr end at `lo` */
		uint32_t mid = lo + (hi - lo) / 2;
		if (u->spans[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = lo; i > first && u->spans[i - 1].max_hi > addr; i--) {
		const struct a2l_unit_span *s = &u->spans[i - 1];
		if (s->hi <= addr)
			continue;
		Dwarf_Addr len = s->hi - s->lo;
		if (p->fn < 0 || len < p->len || (len == p->len && (int32_t)s->fn > p->fn)) {
			p->fn = (int32_t)s->fn;
			p->len = len;
		}
		/* what is inlined into a function lies within its ranges */
		const struct a2l_unit_fn *f = &u->fns[s->fn];
		if (f->nr_children)
			pick_in(u, f->first_child, f->nr_children, addr, p);
	}
}

int32_t a2l_unit_index_pick(const struct a2l_unit_index *u, Dwarf_Addr addr)
{
	struct pick p = { .fn = -1, .len = 0 };
	pick_in(u, u->first_top, u->nr_top, addr, &p);
	return p.fn;
}
