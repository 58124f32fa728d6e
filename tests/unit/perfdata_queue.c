/* perfdata_queue.c - the ordering queue follows perf 6.1's round rule, worked by hand:
 *
 *   push a@5 b@3 c@5        FR1: limit 0 -> nothing;            limit := 5 (max queued)
 *   push d@4 e@9            FR2: limit 5 -> b d a c (ties keep arrival order); limit := 9
 *                           FR3: limit 9 -> e;                  limit := 9
 *                           FR4: queue empty -> nothing, limit stays 9
 *   push f@2 g@12           FR5: limit 9 -> f;                  limit := 12
 *                           final -> g
 * giving b d a c e f g. */
#include <stdio.h>
#include <string.h>

#include "perfdata/perf_ordered_queue.h"

static char got[32];
static size_t ngot;

static void sink(void *arg, const struct perf_queued_record *r)
{
	(void)arg;
	got[ngot++] = (char)r->size; /* the test keeps the record's name in size */
}

static void push(struct perf_ordered_queue *q, char name, uint64_t time)
{
	struct perf_queued_record r = { 0 };
	r.time = time;
	r.size = (uint32_t)name;
	perf_ordered_queue_push(q, &r);
}

int main(void)
{
	struct perf_ordered_queue q = { 0 };
	int fail = 0;

	push(&q, 'a', 5);
	push(&q, 'b', 3);
	push(&q, 'c', 5);
	if (perf_ordered_queue_flush_round(&q, sink, NULL) != 0) {
		fprintf(stderr, "FR1 delivered records\n");
		fail = 1;
	}
	push(&q, 'd', 4);
	push(&q, 'e', 9);
	perf_ordered_queue_flush_round(&q, sink, NULL);
	if (strcmp(got, "bdac")) {
		fprintf(stderr, "after FR2: got %s, want bdac\n", got);
		fail = 1;
	}
	perf_ordered_queue_flush_round(&q, sink, NULL);
	perf_ordered_queue_flush_round(&q, sink, NULL);
	push(&q, 'f', 2);
	push(&q, 'g', 12);
	perf_ordered_queue_flush_round(&q, sink, NULL);
	if (strcmp(got, "bdacef")) {
		fprintf(stderr, "after FR5: got %s, want bdacef\n", got);
		fail = 1;
	}
	perf_ordered_queue_flush_all(&q, sink, NULL);
	if (strcmp(got, "bdacefg")) {
		fprintf(stderr, "final: got %s, want bdacefg\n", got);
		fail = 1;
	}
	perf_ordered_queue_release(&q);
	return fail;
}
