/* unwind_quality.h - the DWARF-unwinding part of a stack-quality report.
 *
 * Fed with the outcome of every walk, it says how many stacks were complete, how many
 * the stack dump cut short (and which dump size the walks wanted: the size to pass to
 * `perf record --call-graph dwarf,SIZE`), and which objects lacked CFI or which pcs no
 * mapping covered. */
#ifndef TEPHRA_QUALITY_UNWIND_QUALITY_H
#define TEPHRA_QUALITY_UNWIND_QUALITY_H

#include <stdint.h>
#include <stdio.h>

#include "unwind/unwinder.h"

/* perf record accepts dump sizes up to this (a multiple of 8 below 64 KiB). */
#define UNWIND_MAX_PERF_DUMP 65528

struct unwind_quality;

struct unwind_quality *unwind_quality_new(void);
void unwind_quality_free(struct unwind_quality *q);

/* One walk: RES as unwinder_walk() left it, DUMP_SIZE the sample's stack dump size
 * (user_stack_size). */
void unwind_quality_add(struct unwind_quality *q, const struct unwind_result *res,
			uint64_t dump_size);

/* The dump size to record with so that every walk seen would have had the stack it
 * wanted so far (a lower bound: a walk cut short might have wanted more after that):
 * the largest stack_needed rounded up to 4 KiB, at most UNWIND_MAX_PERF_DUMP.  0 when
 * no walk was cut short. */
uint64_t unwind_quality_suggested_dump(const struct unwind_quality *q);

/* The counts, for a caller's own summary: walks added, walks ending with STATUS, the
 * largest stack_needed of a cut walk. */
uint64_t unwind_quality_walks(const struct unwind_quality *q);
uint64_t unwind_quality_status_count(const struct unwind_quality *q, enum unwind_status status);
uint64_t unwind_quality_max_needed(const struct unwind_quality *q);
/* The I-th object whose lack of CFI ended walks (in first-seen order): 1 with *NAME and
 * *N (walks) set, 0 past the end. */
int unwind_quality_no_cfi_object(const struct unwind_quality *q, size_t i, const char **name,
				 uint64_t *n);
/* The same for the objects whose file was missing or not the recorded one
 * (UNWIND_NO_FILE): walks ended at their first frame. */
int unwind_quality_no_file_object(const struct unwind_quality *q, size_t i, const char **name,
				  uint64_t *n);

/* Prints the report section (nothing when no walk was added). */
void unwind_quality_print(const struct unwind_quality *q, FILE *out);

#endif
