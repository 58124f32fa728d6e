/* unwind_capture_driver.c - build/unwind/unwind-capture: unwinds one captured sample
 * (registers in perf's numbering, a stack copy, the file mappings; the text format
 * tests/unwind/progs/aarch64_capture.c writes) and prints the walk:
 *
 *   status STATUS [stack_needed N]
 *   frame PC LOOKUP_PC            (one per frame; LOOKUP_PC = PC - 1 for return addresses)
 *
 *   unwind-capture [--dump N] [--libdwfl-only] FILE
 *       --dump N: keep only the first N stack bytes, as a perf record with a smaller
 *       dump size would; --libdwfl-only: no cached CFI rows (the output must not change)
 *
 * A last line "fast N" says whether the walk stayed on cached CFI rows (1) or not.
 *
 * This is how the aarch64 unwinding is tested on an x86_64 host. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwinder.h"

#define MAX_REGS 64
#define MAX_MAPS 256

struct capture_map {
	uint64_t start, end, pgoff;
	char path[512];
};

struct capture {
	char arch[32];
	uint64_t mask;
	uint64_t regs[MAX_REGS];
	size_t nr_regs;
	struct capture_map maps[MAX_MAPS];
	size_t nr_maps;
	uint8_t *stack;
	uint64_t stack_size;
};

static int find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	const struct capture *c = arg;

	for (size_t i = 0; i < c->nr_maps; i++) {
		if (addr >= c->maps[i].start && addr < c->maps[i].end) {
			*out = (struct unwind_map){
				.path = c->maps[i].path,
				.start = c->maps[i].start,
				.end = c->maps[i].end,
				.pgoff = c->maps[i].pgoff,
			};
			return 1;
		}
	}
	return 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* Returns 0, or -1 with a message naming the line. */
static int read_capture(const char *path, struct capture *c)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct capture_map *m;
		unsigned long long v;
		int at = 0;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "arch %31s", c->arch) == 1)
			continue;
		if (sscanf(line, "mask %llx", &v) == 1) {
			c->mask = v;
			continue;
		}
		if (sscanf(line, "reg %llx", &v) == 1 && c->nr_regs < MAX_REGS) {
			c->regs[c->nr_regs++] = v;
			continue;
		}
		if (!strncmp(line, "map ", 4) && c->nr_maps < MAX_MAPS) {
			m = &c->maps[c->nr_maps];
			if (sscanf(line, "map %" SCNx64 " %" SCNx64 " %" SCNx64 " %n", &m->start,
				   &m->end, &m->pgoff, &at) != 3 || !at) {
				fprintf(stderr, "%s: line %u: bad map line\n", path, lineno);
				fclose(f);
				return -1;
			}
			snprintf(m->path, sizeof(m->path), "%s", line + at);
			c->nr_maps++;
			continue;
		}
		if (sscanf(line, "stack %llu", &v) == 1) {
			uint64_t n = 0;
			int ch, hi = -1;

			if (v > (64u << 20)) {
				fprintf(stderr, "%s: line %u: stack of %llu bytes\n", path, lineno, v);
				fclose(f);
				return -1;
			}
			c->stack = malloc(v ? v : 1);
			while (n < v && (ch = fgetc(f)) != EOF) {
				int h = hexval(ch);

				if (h < 0)
					continue;
				if (hi < 0) {
					hi = h;
				} else {
					c->stack[n++] = (uint8_t)(hi << 4 | h);
					hi = -1;
				}
			}
			c->stack_size = n;
			break;
		}
	}
	fclose(f);
	if (!c->stack || c->nr_regs != (size_t)__builtin_popcountll(c->mask)) {
		fprintf(stderr, "%s: incomplete capture (%zu registers for mask %#" PRIx64 ")\n",
			path, c->nr_regs, c->mask);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct capture c;
	const char *path = NULL;
	uint64_t dump = UINT64_MAX;
	struct unwinder_options opts = { .find_map = find_map, .find_map_arg = &c };
	struct tephra_error err = { { 0 } };
	struct unwind_frame frames[128];
	struct unwind_result res = { .frames = frames, .max_frames = 128 };
	struct unwind_sample_regs s;
	struct unwinder *u;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dump") && i + 1 < argc)
			dump = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--libdwfl-only"))
			opts.libdwfl_only = 1;
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: unwind-capture [--dump N] [--libdwfl-only] FILE\n");
		return 2;
	}
	if (read_capture(path, &c) != 0)
		return 1;
	if (unwind_arch_from_name(c.arch, &opts.arch) != 0) {
		fprintf(stderr, "%s: architecture %s is not supported\n", path, c.arch);
		return 1;
	}
	u = unwinder_new(&opts, &err);
	if (!u) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	s = (struct unwind_sample_regs){
		.tid = 1,
		.abi = 2,
		.regs_mask = c.mask,
		.regs = c.regs,
		.stack = c.stack,
		.stack_size = dump < c.stack_size ? dump : c.stack_size,
		.stack_dyn_size = dump < c.stack_size ? dump : c.stack_size,
	};
	unwinder_walk(u, &s, &res);
	printf("status %s", unwind_status_name(res.status));
	if (res.status == UNWIND_STACK_CUT)
		printf(" stack_needed %" PRIu64, res.stack_needed);
	printf("\n");
	for (size_t i = 0; i < res.nr_frames; i++)
		printf("frame %#" PRIx64 " %#" PRIx64 "\n", frames[i].pc,
		       unwind_frame_lookup_pc(&frames[i]));
	printf("fast %" PRIu64 "\n", unwinder_stats(u)->nr_fast_walks);
	unwinder_free(u);
	free(c.stack);
	return 0;
}
