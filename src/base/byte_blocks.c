/* byte_blocks.c - a byte stream in blocks (see byte_blocks.h). */
#include "base/byte_blocks.h"

#include <stdlib.h>

#include "base/xalloc.h"

#define BLOCK_MIN 1024
#define BLOCK_MAX (256 * 1024)

uint8_t *byte_blocks_room(struct byte_blocks *b, size_t need)
{
	struct byte_block *last = b->nr ? &b->v[b->nr - 1] : NULL;
	if (last && last->cap - last->len >= need)
		return last->bytes + last->len;
	size_t cap = !last ? BLOCK_MIN : last->cap < BLOCK_MAX ? 2 * last->cap : BLOCK_MAX;
	if (cap < need)
		cap = need;
	if (b->nr == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4;
		b->v = xrealloc(b->v, b->cap * sizeof(*b->v));
	}
	b->v[b->nr++] = (struct byte_block){ xmalloc(cap), 0, cap };
	return b->v[b->nr - 1].bytes;
}

const uint8_t *byte_blocks_next(const struct byte_blocks *b, struct byte_cursor *c)
{
	while (c->block < b->nr && c->pos >= b->v[c->block].len) {
		c->block++;
		c->pos = 0;
	}
	return c->block < b->nr ? b->v[c->block].bytes : NULL;
}

const uint8_t *byte_blocks_take(struct byte_blocks *b, struct byte_cursor *c)
{
	while (c->block < b->nr && c->pos >= b->v[c->block].len) {
		free(b->v[c->block].bytes);
		b->v[c->block] = (struct byte_block){ NULL, 0, 0 };
		c->block++;
		c->pos = 0;
	}
	if (c->block < b->nr)
		return b->v[c->block].bytes;
	byte_blocks_release(b);
	*c = (struct byte_cursor){ 0, 0 };
	return NULL;
}

void byte_blocks_release(struct byte_blocks *b)
{
	for (size_t i = 0; i < b->nr; i++)
		free(b->v[i].bytes);
	free(b->v);
	*b = (struct byte_blocks){ 0 };
}
