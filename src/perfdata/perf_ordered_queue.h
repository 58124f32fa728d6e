/* perf_ordered_queue.h - perf's ordered-events rule: records with a timestamp wait in a
 * queue; FINISHED_ROUND delivers, in timestamp order (ties in arrival order), those not
 * later than the largest timestamp that was queued when the previous round closed.
 * Memory is bounded by the records of about one round. */
#ifndef TEPHRA_PERFDATA_PERF_ORDERED_QUEUE_H
#define TEPHRA_PERFDATA_PERF_ORDERED_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct perf_queued_record {
	uint64_t time;
	uint64_t seq;         /* arrival number: ties keep arrival order */
	const uint8_t *rec;   /* the record's bytes */
	int64_t file_offset;
	uint32_t size;
	uint8_t owned;        /* rec was malloc'ed for the queue */
	uint8_t in_compressed;
	uint16_t part;        /* which file of a perf.data directory it came from */
	int32_t desc_index;
};

struct perf_ordered_queue {
	struct perf_queued_record *items;
	size_t nr, cap;
	int sorted;
	uint64_t next_seq;
	uint64_t next_flush;     /* the limit the next round uses */
	uint64_t max_time;       /* largest time queued (perf's max_timestamp) */
	uint64_t last_flushed;   /* time of the last record delivered by a flush */
};

void perf_queue_push(struct perf_ordered_queue *q, const struct perf_queued_record *rec);
/* FINISHED_ROUND: moves the records due to OUT (via the append callback) and sets the
 * limit for the next round.  FINAL moves everything. */
typedef void (*perf_queue_sink)(void *arg, const struct perf_queued_record *rec);
size_t perf_queue_flush_round(struct perf_ordered_queue *q, perf_queue_sink sink, void *arg);
size_t perf_queue_flush_all(struct perf_ordered_queue *q, perf_queue_sink sink, void *arg);
void perf_queue_release(struct perf_ordered_queue *q);

#endif
