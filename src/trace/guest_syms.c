/* guest_syms.c - flattened function table (see guest_syms.h). */
#include "trace/guest_syms.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct sym_work {
	uint64_t start, end, limit;
	const char *name;
	int binding;
	size_t order;
};

static int by_start_pref(const void *a, const void *b)
{
	const struct sym_work *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
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

void guest_syms_build(struct guest_syms *gs, const struct guest_sym_in *in, size_t n)
{
	memset(gs, 0, sizeof(*gs));
	if (n == 0)
		return;
	struct sym_work *w = xcalloc(n, sizeof(*w));
	size_t names_len = 0;
	for (size_t i = 0; i < n; i++) {
		w[i].start = in[i].start;
		w[i].end = in[i].size ? in[i].start + in[i].size : 0;
		w[i].name = in[i].name ? in[i].name : "";
		w[i].binding = in[i].binding;
		w[i].limit = in[i].limit;
		w[i].order = i;
		names_len += strlen(w[i].name) + 1;
	}
	qsort(w, n, sizeof(*w), by_start_pref);
	/* One entry per distinct start: the first (preferred) alias wins; zero-size ends. */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && w[m - 1].start == w[i].start) {
			if (w[i].end > w[m - 1].end)
				w[m - 1].end = w[i].end;
			if (w[i].limit > w[m - 1].limit)
				w[m - 1].limit = w[i].limit;
			continue;
		}
		w[m++] = w[i];
	}
	for (size_t i = 0; i < m; i++) {
		if (w[i].end > w[i].start)
			continue;
		uint64_t limit = w[i].limit;
		uint64_t next = i + 1 < m ? w[i + 1].start : (limit > w[i].start ? limit : w[i].start + 1);
		if (limit > w[i].start && limit < next)
			next = limit;
		w[i].end = next;
	}
	gs->names = xmalloc(names_len ? names_len : 1);
	gs->funcs = xcalloc(m, sizeof(*gs->funcs));
	gs->nfuncs = m;
	char *p = gs->names;
	for (size_t i = 0; i < m; i++) {
		size_t len = strlen(w[i].name) + 1;
		memcpy(p, w[i].name, len);
		gs->funcs[i].start = w[i].start;
		gs->funcs[i].end = w[i].end;
		gs->funcs[i].name = p;
		p += len;
	}
	/* Flatten: every boundary point; owner of [b_k, b_k+1) = innermost open symbol. */
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
	uint32_t *open = xcalloc(m, sizeof(*open));
	size_t nopen = 0, next_func = 0;
	gs->ivals = xcalloc(np, sizeof(*gs->ivals));
	for (size_t k = 0; k + 1 < np; k++) {
		uint64_t b = pts[k];
		while (nopen && gs->funcs[open[nopen - 1]].end <= b)
			nopen--;
		while (next_func < m && gs->funcs[next_func].start == b)
			open[nopen++] = (uint32_t)next_func++;
		while (nopen && gs->funcs[open[nopen - 1]].end <= b)
			nopen--;
		if (!nopen)
			continue;
		uint32_t owner = open[nopen - 1];
		struct guest_interval *last = gs->nivals ? &gs->ivals[gs->nivals - 1] : NULL;
		if (last && last->func == owner && last->hi == b)
			last->hi = pts[k + 1];
		else
			gs->ivals[gs->nivals++] = (struct guest_interval){ b, pts[k + 1], owner };
	}
	free(open);
	free(pts);
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
