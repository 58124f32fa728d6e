/* fold_pending.c - a fold's deferred stacks (perffold/fold_pending) come back exactly as
 * they were added, in order: object words with the unwound bit (63) set or not, kernel
 * and user addresses side by side (differences of either sign, up to 2^64 - 1), stack
 * indexes that jump, roots and flags of any size, empty stacks and one larger than a
 * chunk; taking everything back empties the store, which then takes new stacks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "perffold/fold_pending.h"

#define N 50000

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s;
}

/* stack I: its fields, and its frames into KEY (room for 2 * 40000 words) */
static void nth(size_t i, uint64_t *seed, struct fold_pending_stack *s, uint64_t *key)
{
	static const uint64_t addrs[] = { 0, UINT64_MAX, 0xffffffff81000000ULL, 0x401000, 1,
					  0x7f0000000000ULL, UINT64_MAX - 1, 0 };
	uint64_t r = lcg(seed);
	s->index = i == 1 ? SIZE_MAX >> 1 : i * 3 + (r & 7);
	s->root = i == 2 ? UINT32_MAX : (uint32_t)(r >> 40);
	s->flags = i == 3 ? ~0u : (unsigned)(r >> 20) & 0x3f;
	s->n = i == 4 ? 40000 : i == 5 ? 0 : (size_t)(r >> 58);
	for (size_t j = 0; j < s->n; j++) {
		uint64_t q = lcg(seed);
		key[2 * j] = (q >> 44) | ((q & 1) ? 1ULL << 63 : 0);
		key[2 * j + 1] = j < 8 && i < 16 ? addrs[j] : (q & 2) ? 0xffffffff81000000ULL + (q >> 40)
										 : 0x400000 + (q >> 44);
	}
	s->addr_key = key;
}

static size_t check_all(struct fold_pending *p, uint64_t seed0, size_t from, size_t to,
			uint64_t *key)
{
	uint64_t seed = seed0;
	struct fold_pending_stack want, got;
	size_t bad = 0, n = 0;
	for (size_t i = 0; i < from; i++)
		nth(i, &seed, &want, key);
	while (fold_pending_take(p, &got)) {
		size_t i = from + n++;
		nth(i, &seed, &want, key);
		bad += got.index != want.index || got.root != want.root ||
		       got.flags != want.flags || got.n != want.n ||
		       memcmp(got.addr_key, want.addr_key, 2 * want.n * sizeof(*key)) != 0;
	}
	CHECK(n == to - from);
	return bad;
}

int main(void)
{
	uint64_t *key = malloc(2 * 40000 * sizeof(*key));
	struct fold_pending p = { 0 };
	struct fold_pending_stack s;
	uint64_t seed = 7;
	for (size_t i = 0; i < N; i++) {
		nth(i, &seed, &s, key);
		fold_pending_add(&p, &s);
	}
	CHECK(check_all(&p, 7, 0, N, key) == 0);
	CHECK(!fold_pending_take(&p, &s));

	/* emptied, it takes new stacks (and what is taken back is only those) */
	seed = 7;
	for (size_t i = 0; i < N / 2; i++)
		nth(i, &seed, &s, key); /* skipped */
	for (size_t i = N / 2; i < N; i++) {
		nth(i, &seed, &s, key);
		fold_pending_add(&p, &s);
	}
	/* the index differences continue from the last stack taken */
	CHECK(check_all(&p, 7, N / 2, N, key) == 0);
	fold_pending_release(&p);

	/* released with stacks still waiting: no leak (ASan) */
	seed = 9;
	for (size_t i = 0; i < 100; i++) {
		nth(i, &seed, &s, key);
		fold_pending_add(&p, &s);
	}
	fold_pending_release(&p);
	free(key);
	return failures != 0;
}
