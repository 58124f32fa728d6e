#include "base/hashmap.h"
#include "base/xalloc.h"

#include <endian.h>
#include <stdio.h>
#include <string.h>

/* Keys live in chunks that are never moved, so entry key pointers stay valid. */
struct hashmap_arena_chunk {
	struct hashmap_arena_chunk *next;
	size_t size;
	uint64_t data[]; /* uint64_t for 8-byte alignment of every key */
};

#define ARENA_MIN_CHUNK (64 * 1024)

void hashmap_init(struct hashmap *m)
{
	memset(m, 0, sizeof(*m));
}

void hashmap_release(struct hashmap *m)
{
	struct hashmap_arena_chunk *c = m->arena;

	while (c) {
		struct hashmap_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	free(m->slots);
	free(m->entries);
	memset(m, 0, sizeof(*m));
}

static inline uint64_t mix64(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return h;
}

uint64_t hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0xff51afd7ed558ccdULL);
	uint64_t w;

	/* Eight bytes per step; each word is folded in with a multiply so that order
	 * matters, and the final mix spreads every input bit over the whole result. */
	while (len >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
		p += 8;
		len -= 8;
	}
	/* The last 1-7 bytes without a call to memcpy of a variable length (most keys are
	 * short names): the word ending with them when the key has one, else bytewise. */
	w = 0;
	if (len && p - (const unsigned char *)data >= 8) {
		memcpy(&w, p + len - 8, 8);
		w = le64toh(w) >> (8 * (8 - len));
	} else {
		for (size_t i = 0; i < len; i++)
			w |= (uint64_t)p[i] << (8 * i);
	}
	h = (h ^ w ^ ((uint64_t)len << 56)) * 0x94d049bb133111ebULL;
	return mix64(h);
}

static void *arena_copy(struct hashmap *m, const void *key, size_t len)
{
	size_t need = (len + 1 + 7) & ~(size_t)7; /* key + NUL, rounded to 8 */
	struct hashmap_arena_chunk *c = m->arena;

	if (!c || c->size - m->arena_used < need) {
		size_t size = need > ARENA_MIN_CHUNK ? need : ARENA_MIN_CHUNK;
		if (c && c->size * 2 > size && c->size < 16 * 1024 * 1024)
			size = c->size * 2;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->next = m->arena;
		m->arena = c;
		m->arena_used = 0;
	}
	char *dst = (char *)c->data + m->arena_used;
	if (len)
		memcpy(dst, key, len);
	dst[len] = '\0';
	m->arena_used += need;
	return dst;
}

static void grow_slots(struct hashmap *m)
{
	size_t nr = m->slots ? (m->slot_mask + 1) * 2 : 64;
	uint64_t *slots = xcalloc(nr, sizeof(*slots));
	size_t mask = nr - 1;

	for (size_t i = 0; i < m->nr_entries; i++) {
		const struct hashmap_entry *e = &m->entries[i];
		size_t pos = e->hash & mask;
		while (slots[pos])
			pos = (pos + 1) & mask;
		slots[pos] = ((uint64_t)e->hash << 32) | (uint64_t)(i + 1);
	}
	free(m->slots);
	m->slots = slots;
	m->slot_mask = mask;
}

int64_t hashmap_find(const struct hashmap *m, const void *key, size_t len)
{
	return m->slots ? hashmap_find_hashed(m, key, len, hash_bytes(key, len)) : -1;
}

size_t hashmap_intern_hashed(struct hashmap *m, const void *key, size_t len, uint64_t hash,
			     int *created)
{
	uint32_t h = (uint32_t)hash;

	if (!m->slots)
		grow_slots(m);
	size_t pos = h & m->slot_mask;
	for (;;) {
		uint64_t s = m->slots[pos];
		if (!s)
			break;
		if ((uint32_t)(s >> 32) == h) {
			size_t idx = (uint32_t)s - 1;
			const struct hashmap_entry *e = &m->entries[idx];
			if (e->len == len && !memcmp(e->key, key, len)) {
				if (created)
					*created = 0;
				return idx;
			}
		}
		pos = (pos + 1) & m->slot_mask;
	}

	if (len > UINT32_MAX || m->nr_entries >= UINT32_MAX - 1) {
		xfatal("hash table limit exceeded");
	}
	if (m->nr_entries == m->entries_cap) {
		m->entries_cap = m->entries_cap ? m->entries_cap * 2 : 64;
		m->entries = xrealloc(m->entries, m->entries_cap * sizeof(*m->entries));
	}
	size_t idx = m->nr_entries++;
	struct hashmap_entry *e = &m->entries[idx];
	e->key = arena_copy(m, key, len);
	e->len = (uint32_t)len;
	e->hash = h;
	e->value = 0;
	m->slots[pos] = ((uint64_t)h << 32) | (uint64_t)(idx + 1);
	/* Keep the load factor at most 1/2 so probe runs stay short. */
	if (m->nr_entries * 2 > m->slot_mask + 1)
		grow_slots(m);
	if (created)
		*created = 1;
	return idx;
}

size_t hashmap_intern(struct hashmap *m, const void *key, size_t len, int *created)
{
	return hashmap_intern_hashed(m, key, len, hash_bytes(key, len), created);
}
