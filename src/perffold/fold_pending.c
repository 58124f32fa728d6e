/* fold_pending.c - deferred stacks as varints in byte blocks (see fold_pending.h). */
#include "perffold/fold_pending.h"

#include <stdlib.h>

#include "base/varint.h"
#include "base/xalloc.h"

void fold_pending_add(struct fold_pending *p, const struct fold_pending_stack *s)
{
	uint8_t *b = byte_blocks_room(&p->bytes, (4 + 2 * s->n) * VARINT_MAX);
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
	byte_blocks_used(&p->bytes, k);
	p->last_index = s->index;
}

int fold_pending_take(struct fold_pending *p, struct fold_pending_stack *s)
{
	const uint8_t *b = byte_blocks_take(&p->bytes, &p->at);
	if (!b)
		return 0;
	size_t k = p->at.pos;
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
	p->at.pos = k;
	p->last_taken = s->index;
	return 1;
}

void fold_pending_release(struct fold_pending *p)
{
	byte_blocks_release(&p->bytes);
	free(p->frames);
	*p = (struct fold_pending){ 0 };
}
