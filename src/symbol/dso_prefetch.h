/* dso_prefetch.h - objects loaded on a worker thread.  Internal to src/symbol
 * (symbol_store.c).
 *
 * Reading an object's symbols and opening its DWARF (inflating glibc's debug sections)
 * are fixed costs of tens of milliseconds that depend on nothing but the file.  A
 * reader that will name frames later (tephra fold names each new stack at the end)
 * asks for them with symbol_store_prefetch as soon as it meets an object, and one
 * worker thread loads them while the records are still being read.
 *
 * Ownership: a queued dso belongs to the worker until the queue is empty again;
 * every public lookup of the store first waits for that (dso_prefetch_settle), so a
 * caller can never read a dso the worker is writing.  The worker touches only the
 * dsos it dequeues (never the store's hash table) and the store's options, which do
 * not change.  Requests of one dso run one at a time, in queue order. */
#ifndef TEPHRA_SYMBOL_DSO_PREFETCH_H
#define TEPHRA_SYMBOL_DSO_PREFETCH_H

#include <stdint.h>

struct dso;

struct dso_request {
	struct dso *d;
	int dwarf;         /* open its DWARF too */
	int inline_facts;  /* and work out the inline chain facts at ADDR */
	uint64_t addr;
};

/* Runs one request: whichever thread calls it owns the dso meanwhile. */
typedef void (*dso_request_fn)(struct dso_request rq);

struct dso_prefetch;

/* Starts the worker, which runs requests with RUN; NULL when no thread can be made
 * (then the owner loads objects itself). */
struct dso_prefetch *dso_prefetch_new(dso_request_fn run);
/* Drops the requests still queued, waits for the worker and frees P (NULL: nothing). */
void dso_prefetch_free(struct dso_prefetch *p);

void dso_prefetch_request(struct dso_prefetch *p, struct dso_request rq);

/* 1 the first time (D, ADDR) is asked about, 0 after (the asking thread's own record:
 * callers meet the same frames over and over). */
int dso_prefetch_first_ask(struct dso_prefetch *p, const struct dso *d, uint64_t addr);

/* Returns once every request is finished: then all dsos are the caller's.  Meanwhile
 * the calling thread runs the requests of other dsos than the worker's.  P may be
 * NULL. */
void dso_prefetch_settle(struct dso_prefetch *p);

/* 1 while requests are queued or running. */
int dso_prefetch_busy(const struct dso_prefetch *p);

#endif
