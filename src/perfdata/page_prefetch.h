/* page_prefetch.h - mapping a perf.data file's pages ahead of the reader and dropping
 * them behind it, on a second thread.
 *
 * The reader walks its mmap of the file once, front to back.  Populating the page
 * tables in large batches (MADV_POPULATE_READ) is cheaper than a fault per 64 KB,
 * but it is still ~30 ms of kernel time per 300 MB that the reading thread need not
 * wait for: a thread does it a few megabytes ahead of the reader.  Only the page
 * tables are touched: a page the reader reaches first simply faults as usual. */
#ifndef TEPHRA_PERFDATA_PAGE_PREFETCH_H
#define TEPHRA_PERFDATA_PAGE_PREFETCH_H

#include <stddef.h>

struct page_prefetch;

/* Starts the thread for MAP (SIZE bytes).  NULL when no thread can be made or the
 * kernel cannot populate (then the caller may populate itself). */
struct page_prefetch *page_prefetch_start(const void *map, size_t size);

/* The reader is at byte FROM: asks for the pages from there up to byte OFFSET to be
 * mapped (both only ever grow; pages behind FROM are never mapped again, the reader
 * may have released them). */
void page_prefetch_upto(struct page_prefetch *p, size_t from, size_t offset);

/* The reader no longer needs the pages below byte OFFSET: the thread drops them
 * (MADV_DONTNEED), which keeps the resident size bounded without the reader paying
 * for the page-table teardown. */
void page_prefetch_release(struct page_prefetch *p, size_t offset);

/* Stops and joins the thread; NULL is fine. */
void page_prefetch_stop(struct page_prefetch *p);

#endif
