/* page_prefetch.c - see page_prefetch.h. */
#include "perfdata/page_prefetch.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/xalloc.h"

#define POPULATE_CHUNK (2u << 20) /* per call: the stop flag is checked in between */

struct page_prefetch {
	pthread_t thread;
	const uint8_t *map;
	size_t size, page;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t from;     /* under LOCK: the reader is here (nothing before is wanted) */
	size_t want;     /* under LOCK: populate up to here */
	size_t drop;     /* under LOCK: the reader is done with the pages below */
	int stop;        /* under LOCK */
	size_t done;     /* the thread's: populated up to here */
	size_t dropped;  /* the thread's: released up to here */
};

static void *page_prefetch_main(void *arg)
{
	struct page_prefetch *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->done >= p->want && p->dropped >= p->drop)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop)
			break;
		size_t to = p->want, drop = p->drop;
		/* never behind the reader: it may be done with those pages already */
		if (p->done < p->from)
			p->done = p->from;
		pthread_mutex_unlock(&p->lock);
		if (p->dropped < drop) {
			/* the kernel's page-table teardown, off the reader's thread too */
			(void)madvise((void *)(p->map + p->dropped), drop - p->dropped, MADV_DONTNEED);
			p->dropped = drop;
		}
		while (p->done < to) {
			size_t n = to - p->done < POPULATE_CHUNK ? to - p->done : POPULATE_CHUNK;
#ifdef MADV_POPULATE_READ
			(void)madvise((void *)(p->map + p->done), n, MADV_POPULATE_READ);
#endif
			p->done += n;
		}
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct page_prefetch *page_prefetch_start(const void *map, size_t size)
{
#ifndef MADV_POPULATE_READ
	(void)map;
	(void)size;
	return NULL;
#else
	struct page_prefetch *p = xcalloc(1, sizeof(*p));
	p->map = map;
	p->size = size;
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	/* kernels before 5.14 refuse MADV_POPULATE_READ: then nothing to gain */
	if (size == 0 || madvise((void *)p->map, size < p->page ? size : p->page,
				 MADV_POPULATE_READ) != 0) {
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&p->thread, NULL, page_prefetch_main, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->cond);
		free(p);
		return NULL;
	}
	return p;
#endif
}

void page_prefetch_upto(struct page_prefetch *p, size_t from, size_t offset)
{
	if (!p)
		return;
	if (offset > p->size)
		offset = p->size;
	offset -= offset % p->page;
	from -= from % p->page;
	pthread_mutex_lock(&p->lock);
	if (from > p->from)
		p->from = from;
	if (offset > p->want) {
		p->want = offset;
		pthread_cond_signal(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
}

void page_prefetch_release(struct page_prefetch *p, size_t offset)
{
	if (!p)
		return;
	offset -= offset % p->page;
	pthread_mutex_lock(&p->lock);
	if (offset > p->drop) {
		p->drop = offset;
		pthread_cond_signal(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
}

void page_prefetch_stop(struct page_prefetch *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}
