/* fold_pending.h - the stacks a fold names later (perf_fold.c, defer_names), in creation
 * order: per stack its index, root, quality flags and resolved frames, as varints in
 * byte blocks (base/byte_blocks.h), each block freed as soon as its stacks are taken
 * back.  Why: under export
 * every new stack waits until the last sample is read, and on a 4.2 M-sample
 * frame-pointer file the frames as 64-bit words took 16 MB, in one array doubled by
 * realloc (32 MB), at the export's peak; as varints (object ids, address differences
 * from the frame before) they take about a third.  Private to src/perffold/. */
#ifndef TEPHRA_PERFFOLD_FOLD_PENDING_H
#define TEPHRA_PERFFOLD_FOLD_PENDING_H

#include <stddef.h>
#include <stdint.h>

#include "base/byte_blocks.h"

struct fold_pending {
	struct byte_blocks bytes;
	struct byte_cursor at;                  /* the oldest stack not taken back */
	uint64_t last_index;                    /* of the stack added last */
	uint64_t last_taken;                    /* ... and taken back last */
	uint64_t *frames;                       /* what fold_pending_take returns */
	size_t cap_frames;                      /* in words */
};

/* One stack: its index I, root ROOT, quality flags FLAGS and frames ADDR_KEY[0..2N)
 * (the object word — object id + 1, with FRAME_UNWOUND in bit 63 — and the address of
 * each frame, outermost first). */
struct fold_pending_stack {
	size_t index;
	uint32_t root;
	unsigned flags;
	const uint64_t *addr_key;
	size_t n;
};

void fold_pending_add(struct fold_pending *p, const struct fold_pending_stack *s);

/* The oldest stack not taken yet into *S (its addr_key valid until the next call), 1;
 * or 0 when none is left (every block freed). */
int fold_pending_take(struct fold_pending *p, struct fold_pending_stack *s);

void fold_pending_release(struct fold_pending *p);

#endif
