/* dso_prefetch.c - objects loaded on a worker thread (see dso_prefetch.h). */
#include "symbol/dso_prefetch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/hashmap.h"
#include "base/xalloc.h"

struct dso_prefetch {
	pthread_t thread;
	dso_request_fn run;
	pthread_mutex_t lock;
	pthread_cond_t wake;        /* a request was queued or freed up, or closing */
	pthread_cond_t progress;    /* a request was finished */
	struct dso_request *queue;  /* taken requests have d == NULL */
	size_t head, nr, cap;
	atomic_size_t outstanding;  /* requests queued and not finished */
	const struct dso *working;  /* the dso the worker is loading (NULL: none) */
	const struct dso *helping;  /* the dso the caller's thread is loading, see settle */
	int closing;
	struct hashmap asked;       /* (dso, address) asked about (the asking thread's
				     * alone) */
};

/* Under LOCK: the first queued request whose dso is not BUSY (the other thread's), or
 * -1.  Requests of one dso thus run one at a time, in queue order. */
static ptrdiff_t next_request(struct dso_prefetch *p, const struct dso *busy)
{
	while (p->head < p->nr && !p->queue[p->head].d)
		p->head++;
	if (p->head == p->nr) {
		p->head = p->nr = 0;
		return -1;
	}
	for (size_t i = p->head; i < p->nr; i++)
		if (p->queue[i].d && p->queue[i].d != busy)
			return (ptrdiff_t)i;
	return -1;
}

/* Under LOCK (released meanwhile): runs queued request I, its dso marked as OWNER's
 * while it runs (the worker's or the helping caller's). */
static void run_queued(struct dso_prefetch *p, size_t i, const struct dso **owner)
{
	struct dso_request rq = p->queue[i];
	p->queue[i].d = NULL;
	*owner = rq.d;
	pthread_mutex_unlock(&p->lock);
	p->run(rq);
	pthread_mutex_lock(&p->lock);
	*owner = NULL;
	atomic_fetch_sub_explicit(&p->outstanding, 1, memory_order_release);
}

static void *dso_prefetch_main(void *arg)
{
	struct dso_prefetch *p = arg;
	ptrdiff_t i = -1;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->closing && (i = next_request(p, p->helping)) < 0)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->closing)
			break;
		run_queued(p, (size_t)i, &p->working);
		pthread_cond_broadcast(&p->progress);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The caller's thread helps (at the end of a fold the main thread would otherwise sit
 * idle while the worker finishes). */
void dso_prefetch_settle(struct dso_prefetch *p)
{
	if (!p || atomic_load_explicit(&p->outstanding, memory_order_acquire) == 0)
		return;
	pthread_mutex_lock(&p->lock);
	while (atomic_load_explicit(&p->outstanding, memory_order_acquire) != 0) {
		ptrdiff_t i = next_request(p, p->working);
		if (i < 0) {
			pthread_cond_wait(&p->progress, &p->lock);
			continue;
		}
		run_queued(p, (size_t)i, &p->helping);
		pthread_cond_signal(&p->wake); /* the worker may wait for that dso */
	}
	pthread_mutex_unlock(&p->lock);
}

int dso_prefetch_busy(const struct dso_prefetch *p)
{
	return atomic_load_explicit(&p->outstanding, memory_order_acquire) != 0;
}

void dso_prefetch_free(struct dso_prefetch *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->closing = 1;
	p->head = p->nr; /* what is still queued is no longer wanted */
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->progress);
	free(p->queue);
	hashmap_release(&p->asked);
	free(p);
}

struct dso_prefetch *dso_prefetch_new(dso_request_fn run)
{
	struct dso_prefetch *p = xcalloc(1, sizeof(*p));
	p->run = run;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->progress, NULL);
	atomic_init(&p->outstanding, 0);
	hashmap_init(&p->asked);
	if (pthread_create(&p->thread, NULL, dso_prefetch_main, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->wake);
		pthread_cond_destroy(&p->progress);
		hashmap_release(&p->asked);
		free(p);
		return NULL;
	}
	return p;
}

void dso_prefetch_request(struct dso_prefetch *p, struct dso_request rq)
{
	pthread_mutex_lock(&p->lock);
	if (p->nr == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->queue = xrealloc(p->queue, p->cap * sizeof(*p->queue));
	}
	p->queue[p->nr++] = rq;
	atomic_fetch_add_explicit(&p->outstanding, 1, memory_order_relaxed);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
}

int dso_prefetch_first_ask(struct dso_prefetch *p, const struct dso *d, uint64_t addr)
{
	struct { const struct dso *d; uint64_t addr; } key = { d, addr };
	int created;
	hashmap_intern(&p->asked, &key, sizeof(key), &created);
	return created;
}
