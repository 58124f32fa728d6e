/* export_samples.c - speedscope's kept samples (export_profile's varint stream in
 * blocks) read back exactly as they were added: any 64-bit weight (rising, falling,
 * the extremes), any stack id, across many blocks; and taken back once
 * (export_samples_take, speedscope's writer) the same, leaving none behind. */
#include <stdint.h>

#include "check.h"
#include "export/export_profile.h"

#define N 300000 /* several 256 KB blocks at up to 20 bytes a sample */

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s;
}

/* sample I's stack and weight: extremes first, then pseudo-random of mixed sizes */
static void nth(size_t i, uint64_t *seed, uint32_t *stack, uint64_t *weight)
{
	static const uint64_t w[] = { 0, UINT64_MAX, 1, UINT64_MAX - 1, (uint64_t)1 << 32,
				      UINT32_MAX, 250000, 249999, 250001, 0 };
	static const uint32_t st[] = { 0, UINT32_MAX - 1, 1, 127, 128, 16383, 16384, 5, 5, 0 };
	if (i < sizeof(w) / sizeof(w[0])) {
		*stack = st[i];
		*weight = w[i];
		return;
	}
	uint64_t r = lcg(seed);
	*stack = (uint32_t)(r >> 40) >> (r & 15);
	*weight = (r & 0x30) == 0 ? lcg(seed) : 250000 + (lcg(seed) >> 54);
}

int main(void)
{
	struct export_profile *p = export_profile_new(1);
	struct export_sink sink = export_profile_sink(p);
	CHECK(sink.sample != NULL);
	uint64_t seed = 42;
	for (size_t i = 0; i < N; i++) {
		uint32_t stack;
		uint64_t weight;
		nth(i, &seed, &stack, &weight);
		sink.sample(sink.ctx, stack, weight, i);
	}
	CHECK(p->samples.nr == N);
	CHECK(p->samples.bytes.nr > 1);
	struct export_sample_cursor cur = { { 0, 0 }, 0 };
	struct export_sample s;
	size_t n = 0, bad = 0;
	seed = 42;
	while (export_samples_next(&p->samples, &cur, &s)) {
		uint32_t stack;
		uint64_t weight;
		nth(n++, &seed, &stack, &weight);
		bad += s.stack != stack || s.weight != weight;
	}
	CHECK(n == N);
	CHECK(bad == 0);

	/* taken: the same samples, each block freed (ASan: no use after free), none left */
	cur = (struct export_sample_cursor){ { 0, 0 }, 0 };
	n = bad = 0;
	seed = 42;
	while (export_samples_take(&p->samples, &cur, &s)) {
		uint32_t stack;
		uint64_t weight;
		nth(n++, &seed, &stack, &weight);
		bad += s.stack != stack || s.weight != weight;
		if (n == N / 2) /* blocks behind the cursor are gone, the rest are there */
			CHECK(p->samples.bytes.v[0].bytes == NULL &&
			      p->samples.bytes.v[p->samples.bytes.nr - 1].bytes != NULL);
	}
	CHECK(n == N);
	CHECK(bad == 0);
	CHECK(p->samples.bytes.nr == 0 && p->samples.bytes.v == NULL);
	cur = (struct export_sample_cursor){ { 0, 0 }, 0 };
	CHECK(!export_samples_next(&p->samples, &cur, &s));
	CHECK(!export_samples_take(&p->samples, &cur, &s));
	export_profile_free(p);

	/* a profile that keeps no samples has none to read */
	p = export_profile_new(0);
	cur = (struct export_sample_cursor){ { 0, 0 }, 0 };
	CHECK(export_profile_sink(p).sample == NULL);
	CHECK(!export_samples_next(&p->samples, &cur, &s));
	export_profile_free(p);
	return failures != 0;
}
