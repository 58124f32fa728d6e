/* xalloc.h - allocation that aborts with a message on out-of-memory.
 * Sizes come from data we have actually read, never from an unchecked length field. */
#ifndef TEPHRA_BASE_XALLOC_H
#define TEPHRA_BASE_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Asks the kernel to back [P, P+N) with transparent huge pages (2 MB) when N is at least
 * that big: for buffers about to be filled (inflated DWARF, /proc/kallsyms, big symbol
 * arrays).  On a VM whose first touch of a 4 KB page costs 15-25 us (docs/perf.md, "Where
 * the time goes"), one 2 MB fault replaces 512.  Only advice: nothing changes when THP is
 * off or the memory is not page-aligned at both ends; P is still freed with free(). */
void xalloc_advise_huge(void *p, size_t n);
/* xmalloc(N), 2 MB-aligned and advised as above when N is big. */
void *xmalloc_huge(size_t n);

/* For a program's main(), before any thread starts: puts malloc's heap on huge pages
 * too.  One arena (the helper threads allocate little, and a thread's own arena would
 * be fresh 4 KB pages), grown 128 MB at a time (address space, not memory) and advised
 * MADV_HUGEPAGE; allocations below 32 MB come from it instead of their own mappings.
 * Costs a few MB of peak RSS (2 MB granularity). */
void xalloc_heap_on_huge_pages(void);

/* Writes "tephra: MESSAGE" on stderr and aborts: for a state no caller could return
 * from (memory exhausted, a size limit no real input reaches).  The one place library
 * code writes to the terminal itself; anything else goes through base/report.h or
 * struct tephra_error. */
void xfatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
