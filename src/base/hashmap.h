/* hashmap.h - an open-addressing hash table from byte-string keys to 64-bit values.
 *
 * General purpose: keys are any bytes (a name, an array of ids, a struct packed by
 * the caller); the map copies each key once into its own arena, so callers may pass
 * temporary buffers.  Lookups cost one hash of the key plus, almost always, one
 * memcmp.  Linear probing over a power-of-two slot array that keeps the load below
 * 1/2; each slot caches 32 bits of the hash, so most mismatches never touch the key.
 *
 * Entries are numbered 0, 1, 2, ... in insertion order and never removed, which lets
 * users keep the entry index as a dense id (fold_table uses it as the frame id). */
#ifndef TEPHRA_BASE_HASHMAP_H
#define TEPHRA_BASE_HASHMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct hashmap_arena_chunk;

struct hashmap_entry {
	const void *key;  /* the map's own copy: 8-byte aligned, followed by a NUL byte */
	uint32_t len;     /* key length in bytes */
	uint32_t hash;    /* low 32 bits of the key's hash */
	uint64_t value;
};

struct hashmap {
	uint64_t *slots;                /* (hash32 << 32) | (entry index + 1); 0 = empty */
	size_t slot_mask;               /* number of slots - 1 */
	struct hashmap_entry *entries;
	size_t nr_entries;
	size_t entries_cap;
	struct hashmap_arena_chunk *arena; /* key storage, newest chunk first */
	size_t arena_used;              /* bytes used in the newest chunk */
};

#define HASHMAP_INIT { NULL, 0, NULL, 0, 0, NULL, 0 }

void hashmap_init(struct hashmap *m);
void hashmap_release(struct hashmap *m);

/* 64-bit hash of LEN bytes (not cryptographic; good spread for table indexing). */
uint64_t hash_bytes(const void *data, size_t len);

/* 64-bit hash of one integer (a cheaper hash for the maps keyed by integers below). */
static inline uint64_t hash_u64(uint64_t x)
{
	x *= 0x9e3779b97f4a7c15ULL;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	return x ^ (x >> 32);
}

/* Finds KEY; returns its entry index, or -1 when absent. */
int64_t hashmap_find(const struct hashmap *m, const void *key, size_t len);

/* Finds KEY, inserting it with value 0 when absent (*CREATED says which; may be NULL).
 * Returns the entry index.  Keys longer than UINT32_MAX bytes abort. */
size_t hashmap_intern(struct hashmap *m, const void *key, size_t len, int *created);

/* The same with a hash the caller computed: hash_bytes(KEY), or its own function, the
 * same one for every key of the map (a caller-hashed map is only used through these). */
size_t hashmap_intern_hashed(struct hashmap *m, const void *key, size_t len, uint64_t hash,
			     int *created);

static inline int64_t hashmap_find_hashed(const struct hashmap *m, const void *key, size_t len,
					  uint64_t hash)
{
	/* inline: with a LEN known where it is called (an integer, a pair) the compiler
	 * compares the key in place, and hot paths (a thread per sample, a CFI row per
	 * frame) pay no call */
	if (!m->slots)
		return -1;
	uint32_t h = (uint32_t)hash;
	for (size_t pos = h & m->slot_mask;; pos = (pos + 1) & m->slot_mask) {
		uint64_t s = m->slots[pos];
		if (!s)
			return -1;
		if ((uint32_t)(s >> 32) != h)
			continue;
		const struct hashmap_entry *e = &m->entries[(uint32_t)s - 1];
		if (e->len == len && !memcmp(e->key, key, len))
			return (int64_t)(uint32_t)s - 1;
	}
}

/* A map keyed by integers (a tid, an address): the key's 8 bytes, hashed with hash_u64.
 * Such a map is only used through these two. */
static inline int64_t hashmap_find_u64(const struct hashmap *m, uint64_t key)
{
	return hashmap_find_hashed(m, &key, sizeof(key), hash_u64(key));
}

static inline size_t hashmap_intern_u64(struct hashmap *m, uint64_t key, int *created)
{
	return hashmap_intern_hashed(m, &key, sizeof(key), hash_u64(key), created);
}

static inline struct hashmap_entry *hashmap_entry(const struct hashmap *m, size_t index)
{
	return &m->entries[index];
}

static inline size_t hashmap_count(const struct hashmap *m)
{
	return m->nr_entries;
}

#endif
