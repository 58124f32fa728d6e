/* export_profile.h - a profile as the export formats need it: threads, frames with their
 * objects, addresses and inline chains, interned stacks with summed weights, and (when
 * kept) every sample in time order.
 *
 * It is filled through its export_sink (perf.data: perffold/perf_fold.h with
 * o->export) or from folded text (names only), and read by the writers (pprof,
 * speedscope, callgrind, the report).  Frames, functions, mappings and strings are
 * interned, so memory grows with unique stacks and frames, and with samples only when
 * they are kept (a byte stream, about 4 bytes each: struct export_samples). */
#ifndef TEPHRA_EXPORT_EXPORT_PROFILE_H
#define TEPHRA_EXPORT_EXPORT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/byte_blocks.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/varint.h"
#include "export/export_sink.h"

#define EXPORT_NONE UINT32_MAX

struct export_thread {
	int32_t pid, tid;       /* tid -1: the process's threads together (grind) */
	uint32_t comm;          /* string id */
};

struct export_function {
	uint32_t name, system_name, file; /* string ids (0: "", unknown) */
};

struct export_mapping {
	uint32_t path;          /* string id */
	uint32_t build_id;      /* string id of its hex (0: none) */
};

struct export_loc_line {
	uint32_t function;      /* index into functions */
	uint32_t line;
};

struct export_location {
	uint64_t address;
	uint32_t mapping;       /* EXPORT_NONE: none */
	uint32_t first_line, n_lines; /* into lines, innermost first */
	uint32_t function;      /* string id of export_frame's function (0: the last line's
				 * function's name) */
};

struct export_stack {
	uint32_t thread;        /* EXPORT_NONE: none (folded text) */
	uint32_t first_frame, n_frames; /* into stack_frames (location ids), root first */
	uint64_t weight, samples;
};

/* One sample, in time order (its time is not kept: the order is what the formats
 * use). */
struct export_sample {
	uint32_t stack;
	uint64_t weight;
};

/* Samples in time order as varints in byte blocks (base/byte_blocks.h): the stack id,
 * then the weight's difference from the previous sample's, zigzagged; a recording's
 * periods barely change, so a sample takes about 4 bytes instead of 12.  Starts
 * zeroed. */
struct export_samples {
	struct byte_blocks bytes;
	size_t nr;             /* samples */
	uint64_t total;        /* their weights' sum */
	uint64_t last_weight;  /* the last one's, for the next difference */
};
void export_samples_add(struct export_samples *s, uint32_t stack, uint64_t weight);
void export_samples_release(struct export_samples *s);

/* Reading them in order: a cursor starts zeroed; each call fills *OUT with the next
 * sample and returns 1, or returns 0 after the last. */
struct export_sample_cursor {
	struct byte_cursor at;
	uint64_t weight;
};
int export_samples_next(const struct export_samples *s, struct export_sample_cursor *c,
			struct export_sample *out);
/* export_samples_next for a reader that keeps them another way: each block is freed
 * once read past, all of them by the 0 return (S is then empty), so that the two
 * copies do not add up. */
int export_samples_take(struct export_samples *s, struct export_sample_cursor *c,
			struct export_sample *out);

struct export_profile {
	char *event;            /* what the weights count (NULL: folded text, no unit) */
	int has_sample_counts;  /* samples are counted apart from weights (perf.data); without
				 * them a set event is the unit of the weights (instructions) */
	struct hashmap strings; /* text → id; id 0 is "" */
	struct hashmap functions, mappings;
	struct export_thread *threads;
	struct export_function *funcs;
	struct export_mapping *maps;
	struct export_location *locs;
	struct export_loc_line *lines;
	struct export_stack *stacks;
	uint32_t *stack_frames;
	/* keep_samples: every sample, in time order (what grows with the recording) */
	struct export_samples samples;
	int keep_samples;
	size_t nr_threads, nr_locs, nr_lines, nr_stacks, nr_stack_frames;
	size_t cap_threads, cap_funcs, cap_maps, cap_locs, cap_lines, cap_stacks,
	       cap_stack_frames;
	struct hashmap folded_names;  /* folded text: frame name → location id */
	struct hashmap folded_stacks; /* named stacks: thread, location ids → stack id */
};

/* KEEP_SAMPLES: keep every sample in time order (speedscope); else only the stacks. */
struct export_profile *export_profile_new(int keep_samples);
void export_profile_free(struct export_profile *p);

/* The sink a source fills P through. */
struct export_sink export_profile_sink(struct export_profile *p);

/* The string of id ID (NUL-terminated). */
static inline const char *export_string(const struct export_profile *p, uint32_t id)
{
	return (const char *)hashmap_entry(&p->strings, id)->key;
}

/* Total weight and samples of all stacks. */
uint64_t export_profile_total(const struct export_profile *p);

/* Whether the weights are nanoseconds (cpu-clock, task-clock; off-CPU and wall time). */
int export_profile_is_time(const struct export_profile *p);
/* What nanosecond weights measure: "cpu" (cpu-clock, task-clock), "off-cpu" or "wall"
 * (perffold's off_cpu, wall: the event it names); NULL: not time. */
const char *export_profile_time_kind(const struct export_profile *p);

/* The weights count UNIT (e.g. "instructions": `tephra grind`, `tephra emu`), one value
 * per stack, no sample counts apart from them. */
void export_profile_set_unit(struct export_profile *p, const char *unit);

/* Adds WEIGHT to the stack STACK[0..LEN) ("root;...;leaf" frame names, as a folded line
 * without its count) of thread THREAD (described through the sink; EXPORT_NONE: none):
 * one location per distinct name, no address, as folded text is read.  With a thread
 * and KEEP_SAMPLES, each call is one sample, in the order of the calls. */
void export_profile_add_named(struct export_profile *p, uint32_t thread, const char *stack,
			      size_t len, uint64_t weight);

struct export_folded_stats {
	uint64_t lines, bad_lines, first_bad_line;
	const char *first_bad_why;
};

/* Reads folded text ("root;...;leaf COUNT" lines, COUNT a whole number below 2^63)
 * from F into P: one location per frame name, no threads.  Lines that cannot be read
 * are skipped and counted in STATS.  Returns 0, or -1 with ERR on a read error. */
int export_profile_read_folded(struct export_profile *p, FILE *f, const char *name,
			       struct export_folded_stats *stats, struct tephra_error *err);

#endif
