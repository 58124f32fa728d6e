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

/* Finds KEY; returns its entry index, or -1 when absent. */
int64_t hashmap_find(const struct hashmap *m, const void *key, size_t len);

/* Finds KEY, inserting it with value 0 when absent (*CREATED says which; may be NULL).
 * Returns the entry index.  Keys longer than UINT32_MAX bytes abort. */
size_t hashmap_intern(struct hashmap *m, const void *key, size_t len, int *created);

/* Same as hashmap_intern with a hash the caller already computed with hash_bytes(). */
size_t hashmap_intern_hashed(struct hashmap *m, const void *key, size_t len, uint64_t hash,
			     int *created);

static inline struct hashmap_entry *hashmap_entry(const struct hashmap *m, size_t index)
{
	return &m->entries[index];
}

static inline size_t hashmap_count(const struct hashmap *m)
{
	return m->nr_entries;
}

#endif
