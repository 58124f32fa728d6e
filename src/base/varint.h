/* varint.h - LEB128 varints (protobuf's, DWARF's unsigned form) and zigzag deltas: the
 * one encoding of the byte streams tephra keeps or writes (export's kept samples,
 * pprof's fields, the heat map's streams, a fold's deferred stacks). */
#ifndef TEPHRA_BASE_VARINT_H
#define TEPHRA_BASE_VARINT_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

#define VARINT_MAX 10 /* bytes of the longest (a 64-bit value) */

/* Writes V at BYTES (room for VARINT_MAX); returns the bytes written. */
static inline size_t varint_put(uint8_t *bytes, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		bytes[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	bytes[n++] = (uint8_t)v;
	return n;
}

static inline size_t varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* The varint at BYTES + *POS (the caller knows one is there); *POS moves past it. */
static inline uint64_t varint_get(const uint8_t *bytes, size_t *pos)
{
	uint64_t v = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = bytes[(*pos)++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
}

static inline void varint_add(struct strbuf *sb, uint64_t v)
{
	uint8_t b[VARINT_MAX];
	strbuf_add(sb, b, varint_put(b, v));
}

/* A difference (modulo 2^64) as a small unsigned value whichever its sign. */
static inline uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}
static inline uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

#endif
