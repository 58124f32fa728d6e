/* folded_reader.h - streams folded stack text ("a;b;c 12") into a flame tree.
 *
 * The text is read in blocks and never kept: only the tree grows.  A line is a stack of
 * ';'-separated frames, white space, and a count (digits, optionally with a fraction).
 * A line ending in two counts ("stack before after", as `tephra diff --folded` and
 * difffolded.pl print) fills both columns of the tree.  Lines that cannot be parsed are
 * skipped and counted; the first one is remembered for the warning. */
#ifndef TEPHRA_RENDER_FOLDED_READER_H
#define TEPHRA_RENDER_FOLDED_READER_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/report.h"
#include "fold/stack_sink.h"
#include "render/flame_tree.h"

enum folded_flags {
	FOLDED_STRIP_HEX = 1 << 0,  /* rewrite 0x1234abcd as 0x... (difffolded.pl -s) */
	FOLDED_ONE_COLUMN = 1 << 1, /* of a two-count line, take only the last count */
};

struct folded_opts {
	unsigned flags;
	int col;                    /* the column single counts go to */
	/* Told every few megabytes the bytes read so far (total 0: not known); may be
	 * NULL. */
	const struct tephra_report *report;
};

struct folded_stats {
	uint64_t lines;             /* stack lines added */
	uint64_t bad_lines;         /* lines skipped */
	uint64_t first_bad_line;    /* 1-based line number of the first skipped line */
	uint64_t first_bad_offset;  /* its byte offset */
	const char *first_bad_why;
	int two_columns;            /* some line carried two counts */
	uint64_t bytes;
};

/* Reads all of F (named NAME in messages).  Returns 0, or -1 with ERR set when the file
 * cannot be read; unparseable lines are not errors (see STATS). */
int folded_read(FILE *f, const char *name, struct flame_tree *t, const struct folded_opts *opts,
		struct folded_stats *stats, struct tephra_error *err);

/* A stack_sink that adds each stack to T as folded_read would add its folded line
 * "FRAMES[0];...;FRAMES[N-1] WEIGHT" with O->flags | FOLDED_ONE_COLUMN, without
 * writing and parsing that line: names split at ';', the leaf's trailing blanks
 * dropped, 0x... with FOLDED_STRIP_HEX, column O->col; a stack that names no frame or
 * weighs 2^53 or more (more than a count can say exactly) is skipped.  STATS->lines and
 * ->bad_lines count the stacks added and skipped (its other fields stay as they are). */
struct folded_feed;
struct folded_feed *folded_feed_new(struct flame_tree *t, const struct folded_opts *o,
				    struct folded_stats *stats);
struct stack_sink folded_feed_sink(struct folded_feed *f);
void folded_feed_free(struct folded_feed *f);

/* Parses one line (without its newline) into T; exposed for tests.  Returns 0 when the
 * line was added or was blank, or -1 with *WHY set when it was skipped. */
int folded_parse_line(const char *line, size_t len, struct flame_tree *t,
		      const struct folded_opts *opts, int *two_columns, const char **why);

#endif
