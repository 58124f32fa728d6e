/* dso_prefetch.h - objects loaded on a pool of worker threads.  Internal to src/symbol
 * (symbol_store.c).
 *
 * Reading an object's symbols and opening its DWARF (inflating glibc's debug sections)
 * are fixed costs of tens of milliseconds that depend on nothing but the file, and
 * working out inline-chain facts costs a DWARF walk per address.  A reader that will
 * name frames later (tephra fold names each new stack at the end) asks for them with
 * symbol_store_prefetch as soon as it meets an object or frame, and the pool's
 * workers (as many as the process has CPUs, base/cpus.h) load them while the records
 * are still being read, distinct objects in parallel.
 *
 * Ownership: each dso has one lane, its requests in the order asked; one thread at a
 * time (a worker, or the caller in dso_prefetch_settle) owns a lane and runs its
 * requests in that order, so a dso's libelf/libdw handles are never used by two
 * threads at once (elfutils is not built thread-safe).  A queued dso belongs to the
 * pool until every request is finished; every public lookup of the store first waits
 * for that (dso_prefetch_settle), so a caller can never read a dso a worker is
 * writing.  A worker touches only the dso of the lane it owns (never the store's hash
 * table) and the store's options, which do not change. */
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

/* Starts WORKERS threads (at least 1), which run requests with RUN; NULL when no
 * thread can be made (then the owner loads objects itself). */
struct dso_prefetch *dso_prefetch_new(dso_request_fn run, unsigned workers);
/* How many worker threads P has. */
unsigned dso_prefetch_workers(const struct dso_prefetch *p);
/* Drops the requests still queued, waits for the worker and frees P (NULL: nothing). */
void dso_prefetch_free(struct dso_prefetch *p);

void dso_prefetch_request(struct dso_prefetch *p, struct dso_request rq);

/* 1 the first time (D, ADDR) is asked about, 0 after (the asking thread's own record:
 * callers meet the same frames over and over). */
int dso_prefetch_first_ask(struct dso_prefetch *p, const struct dso *d, uint64_t addr);

/* Returns once every request is finished: then all dsos are the caller's.  Meanwhile
 * the calling thread runs the requests of dsos no worker has taken.  P may be NULL. */
void dso_prefetch_settle(struct dso_prefetch *p);

/* 1 while requests are queued or running. */
int dso_prefetch_busy(const struct dso_prefetch *p);

#endif
