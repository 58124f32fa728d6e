/* fold_table.h - interned stacks of names with summed weights.
 *
 * Frames are strings; a stack is a sequence of frame ids, root first.  Adding the same
 * stack again only adds its weight.  Memory grows with unique frames and stacks, not
 * with samples.
 *
 * Both tables are base/hashmap open-addressing maps: frame name -> frame id (the entry
 * index), and the stack's frame-id array (as bytes) -> summed weight.  So adding an
 * already-seen stack costs exactly one hash of n*4 bytes and one probe. */
#ifndef TEPHRA_FOLD_FOLD_TABLE_H
#define TEPHRA_FOLD_FOLD_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fold_table;

struct fold_table *fold_table_new(void);
void fold_table_free(struct fold_table *t);

/* Interns a frame name (LEN bytes, need not be NUL-terminated); returns its id.
 * Ids are dense: 0, 1, 2, ... in order of first appearance. */
uint32_t fold_table_frame(struct fold_table *t, const char *name, size_t len);
/* The interned name (NUL-terminated; may itself contain NUL bytes, see _len). */
const char *fold_table_frame_name(const struct fold_table *t, uint32_t id);
size_t fold_table_frame_len(const struct fold_table *t, uint32_t id);
size_t fold_table_nr_frames(const struct fold_table *t);

/* Adds WEIGHT to the stack FRAMES[0..N) (root first).  N may be 0 (the empty stack,
 * written as " WEIGHT").  Sums saturate at UINT64_MAX instead of wrapping. */
void fold_table_add(struct fold_table *t, const uint32_t *frames, size_t n, uint64_t weight);

/* Splits TEXT (LEN bytes, "root;...;leaf", no weight) at every ';' and adds WEIGHT to
 * that stack: the way to feed an existing folded line or a pre-joined path. */
void fold_table_add_text(struct fold_table *t, const char *text, size_t len, uint64_t weight);

/* Writes "root;...;leaf weight\n" lines sorted bytewise by stack text (the key
 * stackcollapse-perf.pl sorts by; this equals `LC_ALL=C sort` of the lines unless a
 * frame contains a byte below ' ').  Stacks whose texts are equal (possible when a
 * name contains ';') are written as one line with their weights summed, as the script's
 * text-keyed hash would.  Returns 0 or -1 on write error. */
int fold_table_write(const struct fold_table *t, FILE *out);

/* Calls FN once per line fold_table_write would write, in the same order: STACK is the
 * line's text without the weight (LEN bytes, NUL-terminated, valid during the call).
 * Stops at the first non-zero return of FN and returns -1; else 0. */
int fold_table_each_line(const struct fold_table *t,
			 int (*fn)(void *arg, const char *stack, size_t len, uint64_t weight),
			 void *arg);

/* Visits every stack in unspecified order. */
void fold_table_each(const struct fold_table *t,
		     void (*fn)(void *arg, const uint32_t *frames, size_t n, uint64_t weight),
		     void *arg);

uint64_t fold_table_total(const struct fold_table *t);
size_t fold_table_nr_stacks(const struct fold_table *t);

#endif
