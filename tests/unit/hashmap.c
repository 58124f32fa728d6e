/* Unit test of base/hashmap: insert/find, dense indices in insertion order, keys copied
 * (callers' buffers may change), NUL bytes and empty keys, growth to a million keys,
 * key alignment (fold_table reads uint32_t arrays straight from keys), integer keys. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/hashmap.h"

#include "unit/check.h"

int main(void)
{
	struct hashmap m = HASHMAP_INIT;
	int created = -1;
	char buf[32];

	CHECK(hashmap_find(&m, "x", 1) == -1); /* empty map */
	CHECK(hashmap_intern(&m, "", 0, &created) == 0 && created == 1);
	CHECK(hashmap_intern(&m, "a\0b", 3, &created) == 1 && created == 1);
	CHECK(hashmap_intern(&m, "a", 1, &created) == 2 && created == 1);
	CHECK(hashmap_intern(&m, "a\0b", 3, &created) == 1 && created == 0);
	CHECK(hashmap_find(&m, "", 0) == 0);
	CHECK(hashmap_find(&m, "a\0c", 3) == -1);
	hashmap_entry(&m, 2)->value = 42;

	/* The key is copied: changing the caller's buffer changes nothing. */
	strcpy(buf, "temporary");
	size_t t = hashmap_intern(&m, buf, strlen(buf), NULL);
	strcpy(buf, "XXXXXXXXX");
	CHECK(hashmap_find(&m, "temporary", 9) == (int64_t)t);
	CHECK(!strcmp(hashmap_entry(&m, t)->key, "temporary")); /* NUL-terminated copy */

	/* A million keys: indices dense, every key found, values kept across growth. */
	for (uint32_t i = 0; i < 1000000; i++) {
		int n = snprintf(buf, sizeof(buf), "key-%u", i);
		size_t idx = hashmap_intern(&m, buf, (size_t)n, &created);
		CHECK(idx == 4 + i && created == 1);
		hashmap_entry(&m, idx)->value = i;
		if (failures > 5)
			break;
	}
	CHECK(hashmap_count(&m) == 1000004);
	for (uint32_t i = 0; i < 1000000; i += 997) {
		int n = snprintf(buf, sizeof(buf), "key-%u", i);
		int64_t idx = hashmap_find(&m, buf, (size_t)n);
		CHECK(idx == 4 + (int64_t)i && hashmap_entry(&m, (size_t)idx)->value == i);
	}
	CHECK(hashmap_entry(&m, 2)->value == 42);

	/* Keys are 8-byte aligned; binary keys of every length up to 40 hash apart. */
	for (size_t len = 0; len <= 40; len++) {
		uint8_t key[40];
		memset(key, 0xab, sizeof(key));
		size_t idx = hashmap_intern(&m, key, len, NULL);
		CHECK(((uintptr_t)hashmap_entry(&m, idx)->key & 7) == 0);
		CHECK(hashmap_entry(&m, idx)->len == len);
	}
	/* Integer keys (a map of their own): dense indices, values kept across growth,
	 * keys that differ in high bits only, 0 and all-ones, absent keys not found. */
	struct hashmap ints = HASHMAP_INIT;
	CHECK(hashmap_find_u64(&ints, 0) == -1);
	for (uint64_t i = 0; i < 100000; i++) {
		size_t idx = hashmap_intern_u64(&ints, i << 40 | i, &created);
		CHECK(idx == i && created == 1);
		hashmap_entry(&ints, idx)->value = i + 7;
		if (failures > 5)
			break;
	}
	CHECK(hashmap_intern_u64(&ints, UINT64_MAX, &created) == 100000 && created == 1);
	for (uint64_t i = 0; i < 100000; i += 7) {
		int64_t idx = hashmap_find_u64(&ints, i << 40 | i);
		CHECK(idx == (int64_t)i && hashmap_entry(&ints, (size_t)idx)->value == i + 7);
		CHECK(hashmap_intern_u64(&ints, i << 40 | i, &created) == i && created == 0);
		CHECK(hashmap_find_u64(&ints, (i + 1) << 40 | i) == -1);
	}
	CHECK(hashmap_find_u64(&ints, 0) == 0 && hashmap_find_u64(&ints, UINT64_MAX) == 100000);
	hashmap_release(&ints);

	CHECK(hash_bytes("ab", 2) != hash_bytes("ba", 2));
	CHECK(hash_bytes("", 0) != hash_bytes("\0", 1));
	hashmap_release(&m);
	CHECK(hashmap_count(&m) == 0);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
