/* perf_ordered_queue.c - the time-ordering queue (see perf_ordered_queue.h).
 *
 * perf 6.1 keeps a list sorted by timestamp where a new record goes after every record
 * with an equal timestamp; a FINISHED_ROUND flushes the records whose time is <= the
 * round limit, and only when the queue is not empty does it then move the limit to the
 * largest queued timestamp.  Sorting by (time, arrival number) gives the same sequence. */
#include "perfdata/perf_ordered_queue.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void perf_queue_push(struct perf_ordered_queue *q, const struct perf_queued_record *rec)
{
	if (q->nr == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1024;
		q->items = xrealloc(q->items, q->cap * sizeof(*q->items));
	}
	q->items[q->nr] = *rec;
	q->items[q->nr].seq = q->next_seq++;
	if (q->nr && q->sorted) {
		const struct perf_queued_record *prev = &q->items[q->nr - 1];
		if (prev->time > rec->time)
			q->sorted = 0;
	}
	if (q->nr == 0)
		q->sorted = 1;
	q->nr++;
}

static int by_time_then_arrival(const void *a, const void *b)
{
	const struct perf_queued_record *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static size_t flush_upto(struct perf_ordered_queue *q, uint64_t limit, perf_queue_sink sink,
			 void *arg)
{
	size_t n = 0;

	if (!q->sorted) {
		qsort(q->items, q->nr, sizeof(*q->items), by_time_then_arrival);
		q->sorted = 1;
	}
	while (n < q->nr && q->items[n].time <= limit) {
		sink(arg, &q->items[n]);
		q->last_flushed = q->items[n].time;
		n++;
	}
	memmove(q->items, q->items + n, (q->nr - n) * sizeof(*q->items));
	q->nr -= n;
	return n;
}

size_t perf_queue_flush_round(struct perf_ordered_queue *q, perf_queue_sink sink, void *arg)
{
	uint64_t max_time;
	size_t n;

	if (q->nr == 0)
		return 0; /* perf leaves the limit alone when nothing is queued */
	if (!q->sorted) {
		qsort(q->items, q->nr, sizeof(*q->items), by_time_then_arrival);
		q->sorted = 1;
	}
	max_time = q->items[q->nr - 1].time;
	n = flush_upto(q, q->next_flush, sink, arg);
	q->next_flush = max_time;
	return n;
}

size_t perf_queue_flush_all(struct perf_ordered_queue *q, perf_queue_sink sink, void *arg)
{
	if (q->nr == 0)
		return 0;
	return flush_upto(q, UINT64_MAX, sink, arg);
}

void perf_queue_release(struct perf_ordered_queue *q)
{
	for (size_t i = 0; i < q->nr; i++)
		if (q->items[i].owned)
			free((void *)q->items[i].rec);
	free(q->items);
	memset(q, 0, sizeof(*q));
}
