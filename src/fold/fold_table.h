/* fold_table.h - interned stacks of names with summed weights.
 *
 * Frames are strings; a stack is a sequence of frame ids, root first.  Adding the same
 * stack again only adds its weight.  Memory grows with unique frames and stacks, not
 * with samples. */
#ifndef TEPHRA_FOLD_FOLD_TABLE_H
#define TEPHRA_FOLD_FOLD_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fold_table;

struct fold_table *fold_table_new(void);
void fold_table_free(struct fold_table *t);

/* Interns a frame name (LEN bytes, need not be NUL-terminated); returns its id. */
uint32_t fold_table_frame(struct fold_table *t, const char *name, size_t len);
const char *fold_table_frame_name(const struct fold_table *t, uint32_t id);

/* Adds WEIGHT to the stack FRAMES[0..N) (root first). */
void fold_table_add(struct fold_table *t, const uint32_t *frames, size_t n, uint64_t weight);

/* Writes "root;...;leaf weight\n" lines sorted bytewise by stack text (as `sort` with
 * LC_ALL=C would), as stackcollapse-perf.pl's output is sorted.  Returns 0 or -1 on
 * write error. */
int fold_table_write(const struct fold_table *t, FILE *out);

/* Visits every stack in unspecified order. */
void fold_table_each(const struct fold_table *t,
		     void (*fn)(void *arg, const uint32_t *frames, size_t n, uint64_t weight),
		     void *arg);

uint64_t fold_table_total(const struct fold_table *t);
size_t fold_table_nr_stacks(const struct fold_table *t);

#endif
