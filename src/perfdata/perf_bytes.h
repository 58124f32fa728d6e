/* perf_bytes.h - bounds-checked little-endian loads for the perf.data decoder.
 *
 * perf.data written on this (little-endian) machine is read without byte swapping;
 * loads go through memcpy so that a record at an odd address is not undefined
 * behaviour.  A cursor walks a byte range and fails (sticky) instead of reading past
 * its end, so decoders check once at the end rather than before every field. */
#ifndef TEPHRA_PERFDATA_PERF_BYTES_H
#define TEPHRA_PERFDATA_PERF_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t pb_u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t pb_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t pb_u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

struct pb_cursor {
	const uint8_t *p;   /* next byte */
	const uint8_t *end; /* one past the last byte */
	int bad;            /* set once a read ran past end */
};

static inline void pb_init(struct pb_cursor *c, const uint8_t *p, size_t n)
{
	c->p = p;
	c->end = p + n;
	c->bad = 0;
}

static inline size_t pb_left(const struct pb_cursor *c) { return (size_t)(c->end - c->p); }

/* Returns a pointer to the next N bytes and advances, or NULL (and marks the cursor bad). */
static inline const uint8_t *pb_take(struct pb_cursor *c, uint64_t n)
{
	const uint8_t *q = c->p;
	if (c->bad || n > pb_left(c)) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return q;
}

static inline uint64_t pb_get_u64(struct pb_cursor *c)
{
	const uint8_t *q = pb_take(c, 8);
	return q ? pb_u64(q) : 0;
}

static inline uint32_t pb_get_u32(struct pb_cursor *c)
{
	const uint8_t *q = pb_take(c, 4);
	return q ? pb_u32(q) : 0;
}

static inline uint16_t pb_get_u16(struct pb_cursor *c)
{
	const uint8_t *q = pb_take(c, 2);
	return q ? pb_u16(q) : 0;
}

#endif
