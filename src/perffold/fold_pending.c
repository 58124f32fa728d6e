/* fold_pending.c - deferred stacks as varints in chunks (see fold_pending.h). */
#include "perffold/fold_pending.h"

#include <stdlib.h>

#include "base/varint.h"
#include "base/xalloc.h"

#define CHUNK_BYTES ((size_t)1 << 19) /* 512 KB: one malloc per ~4000 typical stacks */

struct fold_pending_chunk {
	struct fold_pending_chunk *next;
	size_t len, cap;
	uint8_t bytes[];
};

/* Room for NEED bytes at the end of the last chunk. */
static struct fold_pending_chunk *room(struct fold_pending *p, size_t need)
{
	struct fold_pending_chunk *c = p->tail;
	if (c && c->cap - c->len >= need)
		return c;
	size_t cap = need > CHUNK_BYTES ? need : CHUNK_BYTES;
	c = xmalloc(sizeof(*c) + cap);
	c->next = NULL;
	c->len = 0;
	c->cap = cap;
	if (p->tail)
		p->tail->next = c;
	else
		p->head = c;
	p->tail = c;
	return c;
}

void fold_pending_add(struct fold_pending *p, const struct fold_pending_stack *s)
{
	struct fold_pending_chunk *c = room(p, (4 + 2 * s->n) * VARINT_MAX);
	uint8_t *b = c->bytes + c->len;
	size_t k = 0;
	uint64_t prev = 0;
	k += varint_put(b + k, zigzag((uint64_t)s->index - p->last_index));
	k += varint_put(b + k, s->root);
	k += varint_put(b + k, s->flags);
	k += varint_put(b + k, s->n);
	for (size_t j = 0; j < s->n; j++) {
		uint64_t obj = s->addr_key[2 * j], addr = s->addr_key[2 * j + 1];
		/* rotated: FRAME_UNWOUND, bit 63, comes down to bit 0 */
		k += varint_put(b + k, obj << 1 | obj >> 63);
		k += varint_put(b + k, zigzag(addr - prev));
		prev = addr;
	}
	c->len += k;
	p->last_index = s->index;
}

int fold_pending_take(struct fold_pending *p, struct fold_pending_stack *s)
{
	struct fold_pending_chunk *c = p->head;
	if (c && p->head_pos == c->len && c->next) {
		p->head = c->next;
		free(c);
		c = p->head;
		p->head_pos = 0;
	}
	if (!c || p->head_pos == c->len) {
		if (c)
			c->len = p->head_pos = 0;
		return 0;
	}
	const uint8_t *b = c->bytes;
	size_t k = p->head_pos;
	s->index = (size_t)(p->last_taken + unzigzag(varint_get(b, &k)));
	s->root = (uint32_t)varint_get(b, &k);
	s->flags = (unsigned)varint_get(b, &k);
	s->n = (size_t)varint_get(b, &k);
	if (2 * s->n > p->cap_frames) {
		p->cap_frames = 2 * s->n;
		p->frames = xrealloc(p->frames, p->cap_frames * sizeof(*p->frames));
	}
	uint64_t prev = 0;
	for (size_t j = 0; j < s->n; j++) {
		uint64_t obj = varint_get(b, &k);
		p->frames[2 * j] = obj >> 1 | obj << 63;
		prev += unzigzag(varint_get(b, &k));
		p->frames[2 * j + 1] = prev;
	}
	s->addr_key = p->frames;
	p->head_pos = k;
	p->last_taken = s->index;
	return 1;
}

void fold_pending_release(struct fold_pending *p)
{
	while (p->head) {
		struct fold_pending_chunk *c = p->head;
		p->head = c->next;
		free(c);
	}
	free(p->frames);
	*p = (struct fold_pending){ 0 };
}
