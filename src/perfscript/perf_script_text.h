/* perf_script_text.h - folds `perf script` text (sample header lines followed by
 * indented callchain lines, samples separated by blank lines) into a fold_table, with
 * stackcollapse-perf.pl's reading rules: which lines are headers, the period column
 * as the weight, the event filter, and fold_naming's frame and root rules.
 *
 * Streaming: one line in memory at a time, frames interned as they come. */
#ifndef TEPHRA_PERFSCRIPT_PERF_SCRIPT_TEXT_H
#define TEPHRA_PERFSCRIPT_PERF_SCRIPT_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "fold/fold_naming.h"
#include "fold/fold_table.h"

struct fold_text_stats {
	uint64_t lines;            /* lines read */
	uint64_t samples;          /* samples added to the table */
	uint64_t filtered;         /* sample headers of another event, skipped */
	uint64_t unrecognized;     /* lines that are neither header nor frame nor blank */
	char event[128];           /* the event kept (given or first seen), "" if none */
};

struct fold_text_options {
	unsigned frame_flags;       /* FOLD_KERNEL | FOLD_JIT | FOLD_ADDRS; FOLD_JAVA is
				     * set per sample from the comm */
	enum fold_root_mode root;   /* --pid / --tid */
	const char *event_filter;   /* keep only this event; NULL or "" = the first event
				     * seen (stackcollapse-perf.pl's default) */
	int srcline;                /* input is `perf script -F+srcline`: a source line
				     * follows each frame line; append it as ":file:line"
				     * (stackcollapse-perf.pl --srcline) */
	FILE *warnings;             /* "NAME:LINE: unrecognized line" etc.; NULL = silent */
	struct fold_text_stats *stats; /* filled when not NULL */
};

/* Reads IN (named NAME in messages) to its end.  Returns 0, or -1 with ERR on a read
 * error (what was folded before stays in T).  Malformed lines are not errors: they are
 * skipped and counted, as the script skips them with a warning. */
int fold_perf_script_text(FILE *in, const char *name, struct fold_table *t,
			  const struct fold_text_options *o, struct tephra_error *err);

#endif
