/* dso_prefetch.c - objects loaded on a pool of worker threads (see dso_prefetch.h). */
#include "symbol/dso_prefetch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/hashmap.h"
#include "base/xalloc.h"

/* One dso's requests, in the order asked.  A lane is run by one thread at a time (its
 * owner), which takes its requests in order until none is left: so a dso's libelf and
 * libdw handles are only ever used by one thread at a time. */
struct dso_lane {
	struct dso_request *rq;
	size_t head, nr, cap;
	int owned;          /* a thread is running its requests */
	int ready;          /* on the ready list (has requests, no owner) */
	size_t next_ready;  /* the next lane on the ready list, + 1 (0: the last) */
};

struct dso_prefetch {
	dso_request_fn run;
	pthread_t *threads;
	unsigned nr_threads;
	pthread_mutex_t lock;
	pthread_cond_t wake;        /* a lane became ready, or closing */
	pthread_cond_t progress;    /* a request was finished */
	struct hashmap lane_of;     /* dso pointer -> index in lanes */
	struct dso_lane *lanes;
	size_t nr_lanes, cap_lanes;
	size_t ready_head, ready_tail; /* lanes to take, first asked first; index + 1 */
	atomic_size_t outstanding;  /* requests queued and not finished */
	int closing;
	struct hashmap asked;       /* (dso, address) asked about (the asking thread's
				     * alone) */
};

/* Under LOCK: the first ready lane, now the caller's; -1 when none. */
static ptrdiff_t take_lane(struct dso_prefetch *p)
{
	if (!p->ready_head)
		return -1;
	size_t i = p->ready_head - 1;
	struct dso_lane *l = &p->lanes[i];
	p->ready_head = l->next_ready;
	if (!p->ready_head)
		p->ready_tail = 0;
	l->ready = 0;
	l->owned = 1;
	return (ptrdiff_t)i;
}

/* Under LOCK (released while each request runs): runs lane I's requests in order until
 * it has none (or the pool is closing), then gives the lane up. */
static void run_lane(struct dso_prefetch *p, size_t i)
{
	while (!p->closing && p->lanes[i].head < p->lanes[i].nr) {
		struct dso_lane *l = &p->lanes[i]; /* lanes may move while unlocked */
		struct dso_request rq = l->rq[l->head++];
		pthread_mutex_unlock(&p->lock);
		p->run(rq);
		pthread_mutex_lock(&p->lock);
		atomic_fetch_sub_explicit(&p->outstanding, 1, memory_order_release);
		pthread_cond_broadcast(&p->progress);
	}
	struct dso_lane *l = &p->lanes[i];
	if (l->head == l->nr)
		l->head = l->nr = 0;
	l->owned = 0;
}

static void *dso_prefetch_main(void *arg)
{
	struct dso_prefetch *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		ptrdiff_t i = -1;
		while (!p->closing && (i = take_lane(p)) < 0)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->closing)
			break;
		run_lane(p, (size_t)i);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The caller's thread helps (at the end of a fold the main thread would otherwise sit
 * idle while the workers finish): it takes lanes no worker has taken yet. */
void dso_prefetch_settle(struct dso_prefetch *p)
{
	if (!p || atomic_load_explicit(&p->outstanding, memory_order_acquire) == 0)
		return;
	pthread_mutex_lock(&p->lock);
	while (atomic_load_explicit(&p->outstanding, memory_order_acquire) != 0) {
		ptrdiff_t i = take_lane(p);
		if (i < 0)
			pthread_cond_wait(&p->progress, &p->lock);
		else
			run_lane(p, (size_t)i);
	}
	pthread_mutex_unlock(&p->lock);
}

int dso_prefetch_busy(const struct dso_prefetch *p)
{
	return atomic_load_explicit(&p->outstanding, memory_order_acquire) != 0;
}

unsigned dso_prefetch_workers(const struct dso_prefetch *p)
{
	return p->nr_threads;
}

static void destroy(struct dso_prefetch *p)
{
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->progress);
	for (size_t i = 0; i < p->nr_lanes; i++)
		free(p->lanes[i].rq);
	free(p->lanes);
	free(p->threads);
	hashmap_release(&p->lane_of);
	hashmap_release(&p->asked);
	free(p);
}

void dso_prefetch_free(struct dso_prefetch *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->closing = 1; /* what is still queued is no longer wanted */
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	for (unsigned t = 0; t < p->nr_threads; t++)
		pthread_join(p->threads[t], NULL);
	destroy(p);
}

struct dso_prefetch *dso_prefetch_new(dso_request_fn run, unsigned workers)
{
	struct dso_prefetch *p = xcalloc(1, sizeof(*p));
	p->run = run;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->progress, NULL);
	atomic_init(&p->outstanding, 0);
	hashmap_init(&p->lane_of);
	hashmap_init(&p->asked);
	if (workers < 1)
		workers = 1;
	p->threads = xcalloc(workers, sizeof(*p->threads));
	/* fewer threads than asked is still a pool; none, and the owner loads itself */
	while (p->nr_threads < workers &&
	       pthread_create(&p->threads[p->nr_threads], NULL, dso_prefetch_main, p) == 0)
		p->nr_threads++;
	if (p->nr_threads == 0) {
		destroy(p);
		return NULL;
	}
	return p;
}

void dso_prefetch_request(struct dso_prefetch *p, struct dso_request rq)
{
	pthread_mutex_lock(&p->lock);
	int created;
	size_t i = hashmap_intern_u64(&p->lane_of, (uint64_t)(uintptr_t)rq.d, &created);
	if (created) {
		if (p->nr_lanes == p->cap_lanes) {
			p->cap_lanes = p->cap_lanes ? 2 * p->cap_lanes : 16;
			p->lanes = xrealloc(p->lanes, p->cap_lanes * sizeof(*p->lanes));
		}
		p->lanes[p->nr_lanes++] = (struct dso_lane){ 0 };
	}
	struct dso_lane *l = &p->lanes[i];
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->rq = xrealloc(l->rq, l->cap * sizeof(*l->rq));
	}
	l->rq[l->nr++] = rq;
	atomic_fetch_add_explicit(&p->outstanding, 1, memory_order_relaxed);
	if (!l->owned && !l->ready) {
		l->ready = 1;
		l->next_ready = 0;
		if (p->ready_tail)
			p->lanes[p->ready_tail - 1].next_ready = i + 1;
		else
			p->ready_head = i + 1;
		p->ready_tail = i + 1;
		pthread_cond_signal(&p->wake);
	}
	pthread_mutex_unlock(&p->lock);
}

int dso_prefetch_first_ask(struct dso_prefetch *p, const struct dso *d, uint64_t addr)
{
	struct { const struct dso *d; uint64_t addr; } key = { d, addr };
	int created;
	hashmap_intern(&p->asked, &key, sizeof(key), &created);
	return created;
}
