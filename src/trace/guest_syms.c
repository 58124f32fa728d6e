/* guest_syms.c - flattened function table (see guest_syms.h). */
#include "trace/guest_syms.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct sym_work {
	uint64_t start, end, limit; /* end 0 = zero-size, until decided */
	const char *name;
	int binding, kind;
	size_t order;
};

/* By start; at one start function symbols first, then the preferred alias. */
static int by_start_pref(const void *a, const void *b)
{
	const struct sym_work *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->binding != y->binding)
		return x->binding > y->binding ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : (x > y);
}

/* Drops the labels of W[0..N) (sorted by start): zero-size symbols strictly inside a
 * sized function symbol.  Returns the count kept. */
static size_t drop_labels(struct sym_work *w, size_t n)
{
	uint64_t sized_end = 0; /* furthest end of the sized functions starting before */
	size_t m = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t group_end = 0;
		for (; j < n && w[j].start == w[i].start; j++) {
			if (w[j].kind == GUEST_SYM_FUNC && w[j].end > group_end)
				group_end = w[j].end;
			if (w[j].end == 0 && sized_end > w[j].start)
				continue;
			w[m++] = w[j];
		}
		if (group_end > sized_end)
			sized_end = group_end;
		i = j;
	}
	return m;
}

/* One entry per distinct start (the first, preferred, alias names it; a code label at
 * a function's start is dropped), then the ends of zero-size symbols.  Returns the count
 * kept. */
static size_t merge_and_end(struct sym_work *w, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && w[m - 1].start == w[i].start) {
			if (w[i].kind != w[m - 1].kind)
				continue;
			if (w[i].end > w[m - 1].end)
				w[m - 1].end = w[i].end;
			if (w[i].limit > w[m - 1].limit)
				w[m - 1].limit = w[i].limit;
			continue;
		}
		w[m++] = w[i];
	}
	size_t kept = 0;
	for (size_t i = 0; i < m; i++) {
		struct sym_work *s = &w[i];
		if (s->end <= s->start) {
			/* A function ends at the next function; a code label at the next symbol. */
			size_t k = i + 1;
			while (s->kind == GUEST_SYM_FUNC && k < m && w[k].kind != GUEST_SYM_FUNC)
				k++;
			uint64_t limit = s->limit;
			if (s->kind == GUEST_SYM_CODE && limit && limit <= s->start)
				continue; /* at its section's end: labels no code */
			uint64_t next = k < m ? w[k].start : (limit > s->start ? limit : s->start + 1);
			if (limit > s->start && limit < next)
				next = limit;
			s->end = next;
		}
		w[kept++] = *s;
	}
	return kept;
}

/* Flattens GS->funcs into GS->ivals: every boundary point; the owner of [b_k, b_k+1) is
 * the innermost open function symbol, else the innermost open code label. */
static void flatten(struct guest_syms *gs, const uint8_t *is_code)
{
	size_t m = gs->nfuncs;
	uint64_t *pts = xcalloc(2 * m, sizeof(*pts));
	for (size_t i = 0; i < m; i++) {
		pts[2 * i] = gs->funcs[i].start;
		pts[2 * i + 1] = gs->funcs[i].end;
	}
	qsort(pts, 2 * m, sizeof(*pts), u64_cmp);
	size_t np = 0;
	for (size_t i = 0; i < 2 * m; i++)
		if (!np || pts[np - 1] != pts[i])
			pts[np++] = pts[i];
	uint32_t *open[2] = { xcalloc(m, sizeof(uint32_t)), xcalloc(m, sizeof(uint32_t)) };
	size_t nopen[2] = { 0, 0 }, next_func = 0;
	gs->ivals = xcalloc(np, sizeof(*gs->ivals));
	for (size_t k = 0; k + 1 < np; k++) {
		uint64_t b = pts[k];
		for (int c = 0; c < 2; c++)
			while (nopen[c] && gs->funcs[open[c][nopen[c] - 1]].end <= b)
				nopen[c]--;
		while (next_func < m && gs->funcs[next_func].start == b) {
			int c = is_code[next_func];
			open[c][nopen[c]++] = (uint32_t)next_func++;
		}
		for (int c = 0; c < 2; c++)
			while (nopen[c] && gs->funcs[open[c][nopen[c] - 1]].end <= b)
				nopen[c]--;
		int c = nopen[GUEST_SYM_FUNC] ? GUEST_SYM_FUNC : GUEST_SYM_CODE;
		if (!nopen[c])
			continue;
		uint32_t owner = open[c][nopen[c] - 1];
		struct guest_interval *last = gs->nivals ? &gs->ivals[gs->nivals - 1] : NULL;
		if (last && last->func == owner && last->hi == b)
			last->hi = pts[k + 1];
		else
			gs->ivals[gs->nivals++] = (struct guest_interval){ b, pts[k + 1], owner };
	}
	free(open[0]);
	free(open[1]);
	free(pts);
}

void guest_syms_build(struct guest_syms *gs, const struct guest_sym_in *in, size_t n)
{
	memset(gs, 0, sizeof(*gs));
	if (n == 0)
		return;
	struct sym_work *w = xcalloc(n, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		w[i].start = in[i].start;
		w[i].end = in[i].size ? in[i].start + in[i].size : 0;
		w[i].name = in[i].name ? in[i].name : "";
		w[i].binding = in[i].binding;
		w[i].kind = in[i].kind == GUEST_SYM_CODE ? GUEST_SYM_CODE : GUEST_SYM_FUNC;
		w[i].limit = in[i].limit;
		w[i].order = i;
	}
	qsort(w, n, sizeof(*w), by_start_pref);
	size_t m = merge_and_end(w, drop_labels(w, n));
	size_t names_len = 1;
	for (size_t i = 0; i < m; i++)
		names_len += strlen(w[i].name) + 1;
	gs->names = xmalloc(names_len);
	gs->funcs = xcalloc(m ? m : 1, sizeof(*gs->funcs));
	gs->nfuncs = m;
	uint8_t *is_code = xcalloc(m ? m : 1, 1);
	char *p = gs->names;
	for (size_t i = 0; i < m; i++) {
		size_t len = strlen(w[i].name) + 1;
		memcpy(p, w[i].name, len);
		gs->funcs[i].start = w[i].start;
		gs->funcs[i].end = w[i].end;
		gs->funcs[i].name = p;
		is_code[i] = (uint8_t)w[i].kind;
		p += len;
	}
	flatten(gs, is_code);
	free(is_code);
	free(w);
}

void guest_syms_release(struct guest_syms *gs)
{
	free(gs->funcs);
	free(gs->ivals);
	free(gs->names);
	memset(gs, 0, sizeof(*gs));
}

const struct guest_func *guest_syms_find(const struct guest_syms *gs, uint64_t addr)
{
	size_t lo = 0, hi = gs->nivals;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct guest_interval *iv = &gs->ivals[mid];
		if (addr < iv->lo)
			hi = mid;
		else if (addr >= iv->hi)
			lo = mid + 1;
		else
			return &gs->funcs[iv->func];
	}
	return NULL;
}

const struct guest_func *guest_syms_by_start(const struct guest_syms *gs, uint64_t start)
{
	size_t lo = 0, hi = gs->nfuncs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gs->funcs[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < gs->nfuncs && gs->funcs[lo].start == start ? &gs->funcs[lo] : NULL;
}

int guest_syms_func_of(void *ctx, uint64_t addr, uint64_t *start)
{
	const struct guest_func *f = guest_syms_find(ctx, addr);
	if (!f)
		return 0;
	*start = f->start;
	return 1;
}
