/* perf_ordered_queue.c - the time-ordering queue (see perf_ordered_queue.h).
 *
 * perf 6.1 keeps a list sorted by timestamp where a new record goes after every record
 * with an equal timestamp; a FINISHED_ROUND flushes the records whose time is <= the
 * round limit, and only when the queue is not empty does it then move the limit to the
 * largest queued timestamp.  A stable ordering by time gives the same sequence.
 *
 * The records of a round come as a few runs already in time order (one per CPU buffer,
 * plus what the previous flush left, which is sorted), so a stable merge of adjacent
 * runs sorts them in O(n log runs) with no comparison callback; qsort of every round was
 * the reader's largest cost. */
#include "perfdata/perf_ordered_queue.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Moves the waiting records to the front so the array does not grow without end. */
static void compact(struct perf_ordered_queue *q)
{
	size_t live = q->nr - q->head;

	memmove(q->items, q->items + q->head, live * sizeof(*q->items));
	for (size_t i = 0; i < q->nr_runs; i++)
		q->run_starts[i] -= q->head;
	q->head = 0;
	q->nr = live;
}

void perf_ordered_queue_push(struct perf_ordered_queue *q, const struct perf_queued_record *rec)
{
	if (q->nr == q->cap) {
		if (q->head && q->head >= q->nr - q->head) {
			compact(q);
		} else {
			q->cap = q->cap ? q->cap * 2 : 1024;
			q->items = xrealloc(q->items, q->cap * sizeof(*q->items));
		}
	}
	if (q->nr > q->head && q->items[q->nr - 1].time > rec->time) {
		if (q->nr_runs == q->cap_runs) {
			q->cap_runs = q->cap_runs ? q->cap_runs * 2 : 64;
			q->run_starts = xrealloc(q->run_starts, q->cap_runs * sizeof(*q->run_starts));
		}
		q->run_starts[q->nr_runs++] = q->nr;
	}
	q->items[q->nr++] = *rec;
	q->next_seq++;
}

/* Merges the sorted runs SRC[a, m) and SRC[m, b) into DST[a, b); on equal times the
 * left run (earlier arrivals) goes first. */
static void merge_two(const struct perf_queued_record *src, struct perf_queued_record *dst,
		      size_t a, size_t m, size_t b)
{
	size_t i = a, j = m, o = a;

	if (m == b || src[m - 1].time <= src[m].time) {
		memcpy(dst + a, src + a, (b - a) * sizeof(*src));
		return;
	}
	while (i < m && j < b) {
		if (src[j].time < src[i].time)
			dst[o++] = src[j++];
		else
			dst[o++] = src[i++];
	}
	memcpy(dst + o, src + i, (m - i) * sizeof(*src));
	o += m - i;
	memcpy(dst + o, src + j, (b - j) * sizeof(*src));
}

/* Sorts items[head, nr) by merging adjacent runs pairwise until one is left. */
static void sort_runs(struct perf_ordered_queue *q)
{
	if (!q->nr_runs)
		return;
	if (q->merge_cap < q->cap) {
		free(q->merge_buf);
		q->merge_cap = q->cap;
		q->merge_buf = xmalloc(q->merge_cap * sizeof(*q->merge_buf));
	}
	while (q->nr_runs) {
		/* runs: [head, s0), [s0, s1), ..., [s_last, nr) */
		size_t nr_bounds = q->nr_runs, kept = 0, start = q->head;

		for (size_t r = 0; r <= nr_bounds; r += 2) {
			size_t mid = r < nr_bounds ? q->run_starts[r] : q->nr;
			size_t end = r + 1 < nr_bounds ? q->run_starts[r + 1] : q->nr;

			merge_two(q->items, q->merge_buf, start, mid, end);
			if (r + 1 < nr_bounds)
				q->run_starts[kept++] = end;
			start = end;
		}
		q->nr_runs = kept;
		/* The merged copy becomes the array (both have cap entries). */
		struct perf_queued_record *t = q->items;
		q->items = q->merge_buf;
		q->merge_buf = t;
		size_t c = q->merge_cap;
		q->merge_cap = q->cap;
		q->cap = c;
	}
}

/* Marks the sorted records up to LIMIT as due; they stay in place until taken. */
static size_t close_upto(struct perf_ordered_queue *q, uint64_t limit)
{
	size_t n = 0;

	sort_runs(q);
	while (q->head + n < q->nr && q->items[q->head + n].time <= limit)
		n++;
	q->due = n;
	return n;
}

size_t perf_ordered_queue_close_round(struct perf_ordered_queue *q)
{
	uint64_t max_time;
	size_t n;

	if (q->nr == q->head)
		return 0; /* perf leaves the limit alone when nothing is queued */
	sort_runs(q);
	max_time = q->items[q->nr - 1].time;
	n = close_upto(q, q->next_flush);
	q->next_flush = max_time;
	return n;
}

size_t perf_ordered_queue_close_all(struct perf_ordered_queue *q)
{
	if (q->nr == q->head)
		return 0;
	return close_upto(q, UINT64_MAX);
}

const struct perf_queued_record *perf_ordered_queue_take(struct perf_ordered_queue *q)
{
	const struct perf_queued_record *rec;

	if (!q->due)
		return NULL;
	rec = &q->items[q->head++];
	q->due--;
	q->last_flushed = rec->time;
	if (q->head == q->nr)
		q->head = q->nr = 0; /* REC stays readable: the array is only reused by a push */
	return rec;
}

static size_t drain(struct perf_ordered_queue *q, size_t n, perf_ordered_queue_sink sink,
		    void *arg)
{
	for (size_t i = 0; i < n; i++)
		sink(arg, perf_ordered_queue_take(q));
	return n;
}

size_t perf_ordered_queue_flush_round(struct perf_ordered_queue *q,
				      perf_ordered_queue_sink sink, void *arg)
{
	return drain(q, perf_ordered_queue_close_round(q), sink, arg);
}

size_t perf_ordered_queue_flush_all(struct perf_ordered_queue *q,
				    perf_ordered_queue_sink sink, void *arg)
{
	return drain(q, perf_ordered_queue_close_all(q), sink, arg);
}

void perf_ordered_queue_release(struct perf_ordered_queue *q)
{
	for (size_t i = q->head; i < q->nr; i++)
		if (q->items[i].owned)
			free((void *)q->items[i].rec);
	free(q->items);
	free(q->merge_buf);
	free(q->run_starts);
	memset(q, 0, sizeof(*q));
}
