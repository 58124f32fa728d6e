/* perfdata_queue_runs.c - the ordering queue merges runs of records correctly: random
 * rounds of several time-sorted runs (as per-CPU buffers arrive), with many equal
 * timestamps and records left over from round to round, are delivered exactly as a
 * brute-force model of perf's rule delivers them: a list kept in time order where a new
 * record goes after every record with an equal time (insertion, no sorting code shared
 * with the queue); a round delivers the head records not later than the limit, then
 * the limit becomes the largest time queued when the round closed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/perf_ordered_queue.h"

#define MAX_RECORDS 20000

struct model {
	uint64_t time[MAX_RECORDS];
	uint32_t name[MAX_RECORDS];
	size_t nr;
	uint64_t limit;
};

static void model_push(struct model *m, uint32_t name, uint64_t time)
{
	size_t at = m->nr;
	while (at > 0 && m->time[at - 1] > time)
		at--;
	memmove(m->time + at + 1, m->time + at, (m->nr - at) * sizeof(*m->time));
	memmove(m->name + at + 1, m->name + at, (m->nr - at) * sizeof(*m->name));
	m->time[at] = time;
	m->name[at] = name;
	m->nr++;
}

static size_t model_flush(struct model *m, uint64_t limit, uint32_t *out)
{
	size_t n = 0;
	while (n < m->nr && m->time[n] <= limit) {
		out[n] = m->name[n];
		n++;
	}
	memmove(m->time, m->time + n, (m->nr - n) * sizeof(*m->time));
	memmove(m->name, m->name + n, (m->nr - n) * sizeof(*m->name));
	m->nr -= n;
	return n;
}

static uint32_t got[MAX_RECORDS * 4], want[MAX_RECORDS * 4];
static size_t ngot;

static void sink(void *arg, const struct perf_queued_record *r)
{
	(void)arg;
	got[ngot++] = r->size; /* the record's name */
}

static unsigned rnd(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 8) & 0xffffff;
}

int main(void)
{
	static struct model m;
	unsigned state = 12345;
	int fail = 0;

	for (int trial = 0; trial < 200 && !fail; trial++) {
		struct perf_ordered_queue q = { 0 };
		size_t nwant = 0;
		uint32_t name = 0;
		uint64_t clock = 1000;

		memset(&m, 0, sizeof(m));
		ngot = 0;
		int rounds = 1 + (int)(rnd(&state) % 12);
		for (int round = 0; round < rounds; round++) {
			int runs = 1 + (int)(rnd(&state) % (trial % 3 == 0 ? 3 : 9));
			uint64_t span = 1 + rnd(&state) % 200;
			for (int run = 0; run < runs; run++) {
				/* a run: non-decreasing times inside this round's window, ties often */
				uint64_t t = clock + rnd(&state) % (span / 2 + 1);
				int len = (int)(rnd(&state) % 60);
				for (int k = 0; k < len && m.nr < MAX_RECORDS - 1; k++) {
					struct perf_queued_record rec = { 0 };
					t += rnd(&state) % 3 == 0 ? 0 : rnd(&state) % 4;
					rec.time = t;
					rec.size = name;
					perf_ordered_queue_push(&q, &rec);
					model_push(&m, name, t);
					name++;
				}
			}
			clock += span;
			/* the model's round: deliver up to the limit, then the limit becomes the
			 * largest time queued (when anything was queued) */
			if (m.nr) {
				uint64_t max = m.time[m.nr - 1];
				nwant += model_flush(&m, m.limit, want + nwant);
				m.limit = max;
			}
			perf_ordered_queue_flush_round(&q, sink, NULL);
		}
		nwant += model_flush(&m, UINT64_MAX, want + nwant);
		perf_ordered_queue_flush_all(&q, sink, NULL);
		if (ngot != nwant || memcmp(got, want, nwant * sizeof(*want))) {
			size_t i = 0;
			while (i < ngot && i < nwant && got[i] == want[i])
				i++;
			fprintf(stderr, "trial %d: %zu records delivered, %zu expected; first "
				"difference at %zu\n", trial, ngot, nwant, i);
			fail = 1;
		}
		perf_ordered_queue_release(&q);
	}
	return fail;
}
