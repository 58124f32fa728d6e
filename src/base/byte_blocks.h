/* byte_blocks.h - an append-only byte stream in blocks that never move, read back in
 * order, each block freed once read past when the reader asks.  Why blocks: a doubling
 * array's copies leave freed memory behind that still counts in the peak RSS, and what
 * is read once can go as it is read.  Blocks grow from 1 KB (many small streams: a
 * speedscope stream per thread) to 256 KB.  Holds varint records (base/varint.h): an
 * export's kept samples, a fold's deferred stacks. */
#ifndef TEPHRA_BASE_BYTE_BLOCKS_H
#define TEPHRA_BASE_BYTE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

struct byte_block {
	uint8_t *bytes;
	size_t len, cap;
};

struct byte_blocks {  /* starts zeroed */
	struct byte_block *v;
	size_t nr, cap;
};

struct byte_cursor {  /* starts zeroed: the first byte */
	size_t block, pos;
};

/* Room for NEED bytes at the end, in one block (a record never spans two); the caller
 * writes at most NEED bytes there, then says how many with byte_blocks_used. */
uint8_t *byte_blocks_room(struct byte_blocks *b, size_t need);
static inline void byte_blocks_used(struct byte_blocks *b, size_t n)
{
	b->v[b->nr - 1].len += n;
}

/* The bytes of the block holding C's next record (read from C->pos, moving it on), or
 * NULL after the last. */
const uint8_t *byte_blocks_next(const struct byte_blocks *b, struct byte_cursor *c);
/* byte_blocks_next, freeing each block once read past; at the end every block is gone
 * (B is empty again) and C is back at the start. */
const uint8_t *byte_blocks_take(struct byte_blocks *b, struct byte_cursor *c);

void byte_blocks_release(struct byte_blocks *b);

#endif
