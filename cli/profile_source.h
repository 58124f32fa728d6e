/* profile_source.h - loading a profile for rendering, whatever its form: the CLI's
 * wiring of a source to the renderer.
 *
 * A perf.data file (cli_is_perf_data: its magic, from a path or standard input; or a
 * perf record --threads directory)
 * is folded by the perf reader (perffold/perf_fold.h) exactly as `tephra fold` folds
 * it, and its stacks handed to the flame tree through render's folded_feed; anything
 * else is read as folded stack text (render/folded_reader.h).  Both end up in a flame
 * tree. */
#ifndef TEPHRA_CLI_PROFILE_SOURCE_H
#define TEPHRA_CLI_PROFILE_SOURCE_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "perffold/perf_fold.h"
#include "render/flame_tree.h"
#include "render/folded_reader.h"

struct profile_input_opts {
	unsigned folded_flags;  /* FOLDED_STRIP_HEX, FOLDED_ONE_COLUMN */
	int col;                /* tree column single counts go to */
	int time_order;         /* perf.data: stacks in time order (flame chart) */
	unsigned name_flags;    /* perf.data: FOLD_KERNEL | FOLD_INLINED | ... annotations */
	int progress;           /* report progress on stderr (pass isatty(2)) */
	int count_samples;      /* perf.data: weigh by samples, not by sample periods */
	int compat;             /* perf.data: stackcollapse-perf.pl's naming (--compat) */
	int samples_col;        /* perf.data: each frame's number of samples into column 1
				 * (the graph shows it beside a time) */
	FILE *quality;          /* perf.data: where the stack-quality block goes (as
				 * tephra fold's; not for flame charts), headed
				 * QUALITY_WHO; NULL: nowhere */
	const char *quality_who;
	int off_cpu, wall, preempted; /* perf.data: perf_fold_options' off_cpu, wall,
				       * off_cpu_preempted (docs/offcpu.md) */
	const char *time;       /* perf.data: --time (session/sample_filter.h), or NULL */
	const struct symbol_options *symbols; /* perf.data: where symbols are (--symfs...);
				 * NULL: the defaults */
};

struct profile_stats {
	struct folded_stats folded;  /* for folded text; .lines also counts perf stacks */
	int is_perf_data;
	struct perf_fold_info perf;  /* perf.data: what was folded (the graph's unit) */
	int samples_col;             /* column 1 got the sample counts (samples_col asked) */
};

/* "-" is standard input.  Returns 0, or -1 with ERR (file, offset, what). */
int profile_load(const char *path, struct flame_tree *t, const struct profile_input_opts *o,
		 struct profile_stats *st, struct tephra_error *err);

/* Prints the "ignored N lines" warning for a load, if any lines were skipped. */
void profile_warn_skipped(const char *who, const char *path, const struct profile_stats *st);

/* Whether folded text of GOOD stack lines and BAD unreadable ones is not folded stacks
 * at all: over 90% unreadable (a program, a text file), rather than a profile of its
 * few lines that happen to end in a number.  The one rule of every reader of folded
 * text in the CLI. */
static inline int profile_not_folded(uint64_t good, uint64_t bad)
{
	return bad > 9 * good;
}

/* Whether PATH (a file, not "-") starts like `perf script` output: its first line that
 * is not a comment is a sample header (for the --from-text hint). */
int profile_is_script_text(const char *path);

#endif
