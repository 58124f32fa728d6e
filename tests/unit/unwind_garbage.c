/* unwind_garbage.c - bad samples never crash or hang the unwinder.
 *
 * Thousands of made-up samples against this process's real maps: random registers,
 * random stack bytes salted with real code addresses (so walks wander through real CFI),
 * stack sizes of 0, odd sizes, dyn_size below size, sp at the very top of the address
 * space, ip 0 and -1, a missing register block.  Every walk must end with at most
 * max_frames frames and a status; the ASan+UBSan build checks the memory side.  Plus
 * two cases whose answer is known: an sp whose dump would wrap around the address
 * space, and an ip in no mapping (status "no map", one frame).
 *
 * Every sample is also walked by a second unwinder with the fast path off
 * (libdwfl_only): both must give the same frames, flags and status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwinder.h"

struct self_map {
	uint64_t start, end, pgoff;
	char path[512];
};

static struct self_map maps[512];
static size_t nr_maps;

static void read_self_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	while (f && fgets(line, sizeof(line), f) && nr_maps < 512) {
		struct self_map *m = &maps[nr_maps];
		int at = 0;

		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", (unsigned long *)&m->start,
			   (unsigned long *)&m->end, (unsigned long *)&m->pgoff, &at) < 3 ||
		    !at || line[at] != '/')
			continue;
		snprintf(m->path, sizeof(m->path), "%s", line + at);
		m->path[strcspn(m->path, "\n")] = 0;
		nr_maps++;
	}
	if (f)
		fclose(f);
}

static int find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	(void)arg;
	for (size_t i = 0; i < nr_maps; i++)
		if (addr >= maps[i].start && addr < maps[i].end) {
			*out = (struct unwind_map){ .path = maps[i].path, .start = maps[i].start,
						    .end = maps[i].end, .pgoff = maps[i].pgoff };
			return 1;
		}
	return 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

int main(void)
{
	struct unwinder_options opts = { .arch = UNWIND_ARCH_X86_64, .find_map = find_map };
	struct unwinder_options slow_opts = { .arch = UNWIND_ARCH_X86_64, .find_map = find_map,
						  .libdwfl_only = 1 };
	struct tephra_error err;
	struct unwinder *u, *slow;
	struct unwind_frame frames[48], slow_frames[48];
	static uint8_t stack[16384];
	uint64_t regs[20]; /* popcount(0xff0fff) values */
	const uint64_t code[] = { (uint64_t)(uintptr_t)&main, (uint64_t)(uintptr_t)&qsort,
				  (uint64_t)(uintptr_t)&memcpy, (uint64_t)(uintptr_t)&fopen,
				  (uint64_t)(uintptr_t)&read_self_maps };
	int failures = 0;

	read_self_maps();
	u = unwinder_new(&opts, &err);
	slow = unwinder_new(&slow_opts, &err);
	if (!u || !slow) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	for (int iter = 0; iter < 3000; iter++) {
		struct unwind_result res = { .frames = frames, .max_frames = 1 + rnd() % 48 };
		struct unwind_sample_regs s = { .tid = 1, .abi = 2, .regs_mask = 0xff0fffULL,
						.regs = regs, .stack = stack };
		uint64_t sp;

		for (size_t i = 0; i < 20; i++)
			regs[i] = rnd() % 4 ? code[rnd() % 5] + rnd() % 64 : rnd();
		for (size_t i = 0; i + 8 <= sizeof(stack); i += 8) {
			uint64_t v = rnd() % 3 ? rnd() : code[rnd() % 5] + rnd() % 256;

			memcpy(stack + i, &v, 8);
		}
		switch (rnd() % 6) {
		case 0: sp = rnd(); break;
		case 1: sp = UINT64_MAX - rnd() % 64; break;
		case 2: sp = 0; break;
		default: sp = 0x7ff000000000ULL + (rnd() % 0x100000) * 8; break;
		}
		regs[7] = sp; /* SP */
		switch (rnd() % 8) {
		case 0: regs[8] = 0; break;
		case 1: regs[8] = UINT64_MAX; break;
		default: regs[8] = code[rnd() % 5] + rnd() % 128; break;
		}
		s.stack_size = rnd() % 3 ? rnd() % sizeof(stack) : sizeof(stack);
		s.stack_dyn_size = rnd() % 4 ? s.stack_size : rnd() % (s.stack_size + 1);
		if (rnd() % 10 == 0)
			s.stack = NULL, s.stack_size = s.stack_dyn_size = 0;
		if (rnd() % 20 == 0)
			s.regs = NULL;
		unwinder_walk(u, &s, &res);
		if (res.nr_frames > res.max_frames || (unsigned)res.status > UNWIND_ERROR) {
			fprintf(stderr, "iteration %d: %zu frames of %zu, status %d\n", iter,
				res.nr_frames, res.max_frames, (int)res.status);
			failures++;
		}
		{
			struct unwind_result sr = { .frames = slow_frames, .max_frames = res.max_frames };

			unwinder_walk(slow, &s, &sr);
			if (sr.nr_frames != res.nr_frames || sr.status != res.status ||
			    sr.stack_needed != res.stack_needed || sr.stack_used != res.stack_used ||
			    memcmp(slow_frames, frames, res.nr_frames * sizeof(frames[0]))) {
				fprintf(stderr, "iteration %d: fast path %zu frames (%s), libdwfl %zu (%s)\n",
					iter, res.nr_frames, unwind_status_name(res.status), sr.nr_frames,
					unwind_status_name(sr.status));
				failures++;
			}
		}
	}

	/* An ip in no mapping: one frame, "no map" at that address. */
	{
		struct unwind_result res = { .frames = frames, .max_frames = 48 };
		struct unwind_sample_regs s = { .tid = 1, .abi = 2, .regs_mask = 0xff0fffULL,
						.regs = regs, .stack = stack, .stack_size = 64,
						.stack_dyn_size = 64 };

		memset(regs, 0, sizeof(regs));
		regs[7] = 0x7ff000000000ULL;
		regs[8] = 0x10; /* nothing is mapped at page 0 */
		unwinder_walk(u, &s, &res);
		if (res.status != UNWIND_NO_MAP || res.nr_frames != 1 || res.addr != 0x10) {
			fprintf(stderr, "unmapped ip: %s, %zu frames\n", unwind_status_name(res.status),
				res.nr_frames);
			failures++;
		}
	}
	printf("fast path walks: %lu of %lu\n",
	       (unsigned long)unwinder_stats(u)->nr_fast_walks,
	       (unsigned long)unwinder_stats(u)->nr_samples);
	unwinder_free(u);
	unwinder_free(slow);
	printf("%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
