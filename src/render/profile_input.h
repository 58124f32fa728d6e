/* profile_input.h - loading a profile for rendering, whatever its form.
 *
 * A perf.data file (recognised by its "PERFILE2" magic, from a path or standard input)
 * is folded by the perf reader (perffold/perf_fold.h) exactly as `tephra fold` folds
 * it; anything else is read as folded stack text.  Both end up in a flame tree. */
#ifndef TEPHRA_RENDER_PROFILE_INPUT_H
#define TEPHRA_RENDER_PROFILE_INPUT_H

#include "base/error.h"
#include "render/flame_tree.h"
#include "render/folded_reader.h"

struct profile_input_opts {
	unsigned folded_flags;  /* FOLDED_STRIP_HEX, FOLDED_ONE_COLUMN */
	int col;                /* tree column single counts go to */
	int time_order;         /* perf.data: stacks in time order (flame chart) */
	unsigned name_flags;    /* perf.data: FOLD_KERNEL | FOLD_INLINED | ... annotations */
	int progress;           /* report progress on stderr (pass isatty(2)) */
	int count_samples;      /* perf.data: weigh by samples, not by sample periods */
};

struct profile_stats {
	struct folded_stats folded;  /* for folded text; .lines also counts perf stacks */
	int is_perf_data;
};

/* "-" is standard input.  Returns 0, or -1 with ERR (file, offset, what). */
int profile_load(const char *path, struct flame_tree *t, const struct profile_input_opts *o,
		 struct profile_stats *st, struct tephra_error *err);

/* Prints the "ignored N lines" warning for a load, if any lines were skipped. */
void profile_warn_skipped(const char *path, const struct profile_stats *st);

#endif
