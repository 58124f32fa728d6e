#include "symbol/symbol_table.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "symbol/symbol_demangle.h"

static void remember_name(struct symbol_table *t, char *name)
{
	if (t->nr_names == t->cap_names) {
		t->cap_names = t->cap_names ? t->cap_names * 2 : 256;
		t->names = xrealloc(t->names, t->cap_names * sizeof(*t->names));
	}
	t->names[t->nr_names++] = name;
}

/* perf demangles while loading, so alias choice and output both see demangled
 * names; demangling is costly, so it is done here only for names that are needed. */
static void finalize_name(struct symbol_table *t, struct table_symbol *s)
{
	if (s->name_final)
		return;
	s->name_final = 1;
	if (!t->demangle)
		return;
	char *d = symbol_demangle(s->pub.name);
	if (d) {
		remember_name(t, d);
		s->pub.name = d;
	}
}

static struct table_symbol *new_symbol(struct symbol_table *t, uint64_t start, uint64_t size,
				       int binding, const char *name)
{
	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->syms = xrealloc(t->syms, t->cap * sizeof(*t->syms));
		xalloc_advise_huge(t->syms, t->cap * sizeof(*t->syms)); /* kallsyms: ~4 MB */
	}
	struct table_symbol *s = &t->syms[t->nr];
	memset(s, 0, sizeof(*s));
	s->pub.name = name;
	s->pub.start = start;
	/* perf: a symbol of size 0 has end == start until the end fix-up */
	s->pub.end = size ? start + size : start;
	s->order = t->next_order++;
	if (t->perf_tree) {
		if (s->order == 0)
			perf_rbtree_init(&t->tree);
		perf_rbtree_insert(&t->tree, s->order, start);
	}
	s->binding = (uint8_t)binding;
	t->nr++;
	return s;
}

static void push_symbol(struct symbol_table *t, uint64_t start, uint64_t size, int binding,
			char *name)
{
	remember_name(t, name);
	new_symbol(t, start, size, binding, name);
}

void symbol_table_reserve(struct symbol_table *t, size_t n)
{
	if (n <= t->cap)
		return;
	/* huge pages: kallsyms' ~120 k symbols are ~4 MB, written once in order */
	struct table_symbol *syms = xmalloc_huge(n * sizeof(*syms));
	if (t->nr)
		memcpy(syms, t->syms, t->nr * sizeof(*syms));
	free(t->syms);
	t->syms = syms;
	t->cap = n;
}

void symbol_table_add_borrowed(struct symbol_table *t, uint64_t start, uint64_t size,
			       int binding, const char *name)
{
	new_symbol(t, start, size, binding, name);
}

void symbol_table_add(struct symbol_table *t, uint64_t start, uint64_t size, int binding,
		      const char *name)
{
	push_symbol(t, start, size, binding, xstrdup(name));
}

void symbol_table_add_owned(struct symbol_table *t, uint64_t start, uint64_t size,
			    int binding, char *name)
{
	push_symbol(t, start, size, binding, name);
}

/* perf keeps symbols in an rbtree where an equal start goes to the right, so among
 * equal starts the in-order walk follows insertion order. */
static int cmp_start(const void *a, const void *b)
{
	const struct table_symbol *x = a, *y = b;

	if (x->pub.start != y->pub.start)
		return x->pub.start < y->pub.start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol: non-zero size, then not weak, then global, then fewer
 * leading underscores, then the longer name; a full tie keeps A (the earlier one). */
static int prefer_first(const struct table_symbol *a, const struct table_symbol *b)
{
	uint64_t la = a->pub.end - a->pub.start, lb = b->pub.end - b->pub.start;

	if (lb == 0 && la > 0)
		return 1;
	if (la == 0 && lb > 0)
		return 0;
	int wa = a->binding == STB_WEAK, wb = b->binding == STB_WEAK;
	if (wb && !wa)
		return 1;
	if (wa && !wb)
		return 0;
	int ga = a->binding == STB_GLOBAL, gb = b->binding == STB_GLOBAL;
	if (ga && !gb)
		return 1;
	if (gb && !ga)
		return 0;
	size_t ua = leading_underscores(a->pub.name), ub = leading_underscores(b->pub.name);
	if (ub > ua)
		return 1;
	if (ua > ub)
		return 0;
	size_t na = strlen(a->pub.name), nb = strlen(b->pub.name);
	if (na != nb)
		return na > nb;
	return 1;
}

static uint64_t page_roundup(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

/* perf's symbols__fixup_end. */
static void fix_ends(struct symbol_table *t, int is_kallsyms)
{
	if (!t->nr)
		return;
	for (size_t i = 1; i < t->nr; i++) {
		struct table_symbol *prev = &t->syms[i - 1], *curr = &t->syms[i];

		if (prev->pub.end != prev->pub.start)
			continue;
		/* Between the kernel's last symbol and the first module symbol (or back)
		 * lies a huge gap that must not be given to either. */
		if (is_kallsyms && prev->kallsyms_module != curr->kallsyms_module)
			prev->pub.end = page_roundup(prev->pub.end + 4096);
		else
			prev->pub.end = curr->pub.start;
	}
	struct table_symbol *last = &t->syms[t->nr - 1];
	if (last->pub.end == last->pub.start)
		last->pub.end = page_roundup(last->pub.start) + 4096;
}

/* perf's symbols__fixup_duplicate: one symbol per start address. */
static void drop_aliases(struct symbol_table *t)
{
	size_t out = 0;

	for (size_t i = 0; i < t->nr; i++) {
		if (out && t->syms[out - 1].pub.start == t->syms[i].pub.start) {
			finalize_name(t, &t->syms[out - 1]);
			finalize_name(t, &t->syms[i]);
			/* same erase sequence as perf's in-order walk */
			if (!prefer_first(&t->syms[out - 1], &t->syms[i])) {
				if (t->perf_tree)
					perf_rbtree_erase(&t->tree, t->syms[out - 1].order);
				t->syms[out - 1] = t->syms[i];
			} else if (t->perf_tree) {
				perf_rbtree_erase(&t->tree, t->syms[i].order);
			}
			continue;
		}
		t->syms[out++] = t->syms[i];
	}
	t->nr = out;
}

/* Overlaps make the answer depend on perf's tree shape: keep a map from insertion
 * number to array index for the tree walk. */
static void note_overlaps(struct symbol_table *t)
{
	uint64_t reach = 0;

	t->overlapping = 0;
	for (size_t i = 0; i < t->nr; i++) {
		if (i && t->syms[i].pub.start < reach)
			t->overlapping = 1;
		if (t->syms[i].pub.end > reach)
			reach = t->syms[i].pub.end;
	}
	free(t->pos_of_order);
	t->pos_of_order = NULL;
	if (!t->overlapping || !t->perf_tree)
		return;
	t->pos_of_order = xcalloc(t->next_order ? t->next_order : 1, sizeof(*t->pos_of_order));
	for (size_t i = 0; i < t->nr; i++)
		t->pos_of_order[t->syms[i].order] = (uint32_t)i;
}

/* Sorted already?  /proc/kallsyms lists the kernel's symbols by address: checking
 * is a tenth of what sorting 100k symbols costs. */
static int in_start_order(const struct symbol_table *t)
{
	for (size_t i = 1; i < t->nr; i++)
		if (cmp_start(&t->syms[i - 1], &t->syms[i]) > 0)
			return 0;
	return 1;
}

void symbol_table_finish(struct symbol_table *t, int is_kallsyms)
{
	if (!in_start_order(t))
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_start);
	fix_ends(t, is_kallsyms);
	drop_aliases(t);
	note_overlaps(t);
	if (t->nr < t->cap) {
		t->cap = t->nr ? t->nr : 1;
		t->syms = xrealloc(t->syms, t->cap * sizeof(*t->syms));
	}
}

void symbol_table_resort(struct symbol_table *t)
{
	if (t->nr) /* an empty table has no array: qsort(NULL, 0) is undefined */
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_start);
	note_overlaps(t);
}

static int covers(const struct table_symbol *s, uint64_t addr)
{
	/* perf's symbols__find: [start, end), and a zero-size symbol covers its start */
	return addr >= s->pub.start && (addr < s->pub.end || addr == s->pub.start);
}

/* perf's symbols__find: the first symbol on the search path that covers ADDR. */
static struct table_symbol *tree_find(struct symbol_table *t, uint64_t addr)
{
	uint32_t n = t->tree.root;

	while (n != PERF_RBTREE_NIL) {
		struct table_symbol *s = &t->syms[t->pos_of_order[n]];
		if (addr < s->pub.start)
			n = t->tree.left[n];
		else if (!covers(s, addr))
			n = t->tree.right[n];
		else
			return s;
	}
	return NULL;
}

const struct dso_symbol *symbol_table_find(struct symbol_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	if (t->pos_of_order) {
		struct table_symbol *s = tree_find(t, addr);
		if (s)
			finalize_name(t, s);
		return s ? &s->pub : NULL;
	}

	/* first symbol with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].pub.start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Sized symbols may overlap (a local label inside a function): look back a
	 * little for one that still covers ADDR. */
	for (size_t k = 0; k < 8 && lo > 0; k++, lo--) {
		if (covers(&t->syms[lo - 1], addr)) {
			finalize_name(t, &t->syms[lo - 1]);
			return &t->syms[lo - 1].pub;
		}
	}
	return NULL;
}

void symbol_table_release(struct symbol_table *t)
{
	for (size_t i = 0; i < t->nr_names; i++)
		free(t->names[i]);
	free(t->names);
	free(t->arena);
	free(t->syms);
	free(t->pos_of_order);
	if (t->perf_tree && t->next_order)
		perf_rbtree_release(&t->tree);
	memset(t, 0, sizeof(*t));
}
