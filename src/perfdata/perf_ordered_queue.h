/* perf_ordered_queue.h - perf's ordered-events rule: records with a timestamp wait in a
 * queue; FINISHED_ROUND delivers, in timestamp order (ties in arrival order), those not
 * later than the largest timestamp that was queued when the previous round closed.
 * Memory is bounded by the records of about one round.
 *
 * Records arrive as time-sorted runs (each CPU's ring buffer is in time order, and perf
 * copies the buffers one after the other), so the queue remembers where each run starts
 * and a flush merges the runs (stable: ties keep arrival order) instead of sorting. */
#ifndef TEPHRA_PERFDATA_PERF_ORDERED_QUEUE_H
#define TEPHRA_PERFDATA_PERF_ORDERED_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct perf_queued_record {
	uint64_t time;
	const uint8_t *rec;   /* the record's bytes */
	int64_t file_offset;
	uint32_t size;
	uint8_t owned;        /* rec was malloc'ed for the queue */
	uint8_t in_compressed;
	uint16_t part;        /* which file of a perf.data directory it came from */
	int32_t desc_index;
};

struct perf_ordered_queue {
	struct perf_queued_record *items; /* queued records are items[head, nr), in arrival
					   * order except that a flush leaves them sorted */
	size_t head, nr, cap;
	size_t *run_starts;      /* where each time-sorted run after the first starts */
	size_t nr_runs, cap_runs;
	struct perf_queued_record *merge_buf; /* scratch for merging runs (cap entries) */
	size_t merge_cap;
	size_t due;              /* items[head, head + due) are closed, waiting to be taken */
	uint64_t next_seq;       /* records pushed so far */
	uint64_t next_flush;     /* the limit the next round uses */
	uint64_t max_time;       /* largest time queued (perf's max_timestamp) */
	uint64_t last_flushed;   /* time of the last record delivered by a flush */
};

/* How many records wait in the queue. */
static inline size_t perf_ordered_queue_len(const struct perf_ordered_queue *q)
{
	return q->nr - q->head;
}

/* Queues REC.  Nothing may be due (take the due records first). */
void perf_ordered_queue_push(struct perf_ordered_queue *q, const struct perf_queued_record *rec);
/* FINISHED_ROUND without copying: marks the records due now (returned count) and sets
 * the limit for the next round; perf_ordered_queue_take() then hands them out in order, each
 * valid until the next push.  close_all makes everything due. */
size_t perf_ordered_queue_close_round(struct perf_ordered_queue *q);
size_t perf_ordered_queue_close_all(struct perf_ordered_queue *q);
const struct perf_queued_record *perf_ordered_queue_take(struct perf_ordered_queue *q);
/* FINISHED_ROUND: moves the records due to OUT (via the append callback) and sets the
 * limit for the next round.  FINAL moves everything. */
typedef void (*perf_ordered_queue_sink)(void *arg, const struct perf_queued_record *rec);
size_t perf_ordered_queue_flush_round(struct perf_ordered_queue *q,
				      perf_ordered_queue_sink sink, void *arg);
size_t perf_ordered_queue_flush_all(struct perf_ordered_queue *q,
				    perf_ordered_queue_sink sink, void *arg);
void perf_ordered_queue_release(struct perf_ordered_queue *q);

#endif
