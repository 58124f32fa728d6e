/* maps.c - sorted mapping arrays with perf's overlap rules (see maps.h). */
#include "machine/maps.h"

#include <string.h>

#include "base/xalloc.h"

struct maps *maps_new(void)
{
	struct maps *m = xcalloc(1, sizeof(*m));
	m->refs = 1;
	return m;
}

struct maps *maps_clone(const struct maps *src)
{
	struct maps *m = maps_new();
	if (src->n) {
		m->v = xmalloc(src->n * sizeof(*m->v));
		memcpy(m->v, src->v, src->n * sizeof(*m->v));
		m->n = m->cap = src->n;
	}
	return m;
}

void maps_get(struct maps *m)
{
	m->refs++;
}

void maps_put(struct maps *m)
{
	if (!m || --m->refs)
		return;
	free(m->v);
	free(m);
}

/* First index whose map ends after ADDR (the first one that could contain or follow it). */
static size_t first_ending_after(const struct maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void reserve(struct maps *m, size_t extra)
{
	if (m->n + extra <= m->cap)
		return;
	size_t cap = m->cap ? m->cap * 2 : 16;
	while (cap < m->n + extra)
		cap *= 2;
	m->v = xrealloc(m->v, cap * sizeof(*m->v));
	m->cap = cap;
}

void maps_insert(struct maps *m, const struct map_entry *e)
{
	if (e->end <= e->start)
		return;
	/* Overlapped maps are the run [first, last) : each ends after e->start and starts
	 * before e->end.  They are replaced by at most one head piece, E, and one tail piece. */
	size_t first = first_ending_after(m, e->start), last = first;
	while (last < m->n && m->v[last].start < e->end)
		last++;
	struct map_entry pieces[3];
	size_t np = 0;
	if (first < last && m->v[first].start < e->start) {
		pieces[np] = m->v[first];
		pieces[np++].end = e->start;
	}
	pieces[np++] = *e;
	if (first < last && m->v[last - 1].end > e->end) {
		struct map_entry tail = m->v[last - 1];
		tail.pgoff += e->end - tail.start;
		tail.start = e->end;
		pieces[np++] = tail;
	}
	size_t removed = last - first;
	reserve(m, np);
	memmove(m->v + first + np, m->v + last, (m->n - last) * sizeof(*m->v));
	memcpy(m->v + first, pieces, np * sizeof(*m->v));
	m->n = m->n - removed + np;
}

const struct map_entry *maps_find(const struct maps *m, uint64_t addr)
{
	size_t i = first_ending_after(m, addr);
	if (i < m->n && m->v[i].start <= addr)
		return &m->v[i];
	return NULL;
}
