/* kallsyms_prefetch.h - a kallsyms file read on a second thread.  Internal to
 * src/symbol (symbol_store.c).
 *
 * The kernel takes ~40 ms to produce /proc/kallsyms and parsing and sorting it takes
 * ~10 ms more; none of it depends on the records.  So the store reads it on a second
 * thread from the moment the kernel's dso appears with a recorded build-id (its MMAP
 * record, among the first) until the first kernel symbol lookup finishes it.  The
 * thread touches nothing but its own struct kallsyms_prefetch; the owner reads the
 * result only after joining it.  A prefetch cancelled before any lookup stops the
 * thread (it checks between reads) and joins it. */
#ifndef TEPHRA_SYMBOL_KALLSYMS_PREFETCH_H
#define TEPHRA_SYMBOL_KALLSYMS_PREFETCH_H

#include "symbol/kallsyms.h"

struct kallsyms_prefetch;

/* Starts reading PATH (kallsyms_load) on a new thread; NULL when no thread can be made
 * (then the owner reads the file itself). */
struct kallsyms_prefetch *kallsyms_prefetch_start(const char *path);

/* 1 once the thread has finished (its result still needs kallsyms_prefetch_finish). */
int kallsyms_prefetch_done(const struct kallsyms_prefetch *p);

/* Stops the thread, waits for it and frees P (NULL: nothing). */
void kallsyms_prefetch_cancel(struct kallsyms_prefetch *p);

/* kallsyms_load of FILE into K, taking P's result when P read FILE: waits for P's
 * thread and frees P (NULL: reads FILE here).  Returns kallsyms_load's answer. */
int kallsyms_prefetch_finish(struct kallsyms_prefetch *p, struct kallsyms *k, const char *file);

#endif
