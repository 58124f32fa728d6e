/* export_write.h - the export formats, written from an export_profile. */
#ifndef TEPHRA_EXPORT_EXPORT_WRITE_H
#define TEPHRA_EXPORT_EXPORT_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "export/export_profile.h"

/* What a pprof Location stands for (named after pprof's -addresses, -functions). */
enum export_granularity {
	EXPORT_GRANULARITY_ADDRESSES, /* one per (object, address) */
	EXPORT_GRANULARITY_FUNCTIONS, /* one per (object, inline chain of functions), at
				       * address 0 with no line numbers: a Sample is then
				       * one folded line of one thread */
};

struct export_write_options {
	int64_t time_nanos;     /* when the profile was taken (0: unknown) */
	int gzip_level;         /* pprof: 1..12 (libdeflate), 0 = 6 */
	enum export_granularity granularity; /* pprof */
};

/* pprof: a gzip-compressed perftools.profiles.Profile (profile.proto).  Returns 0, or
 * -1 with ERR (write error). */
int export_write_pprof(const struct export_profile *p, const struct export_write_options *o,
		       FILE *out, struct tephra_error *err);

/* The callgrind profile format (see callgrind_write.c for how sampled stacks become
 * self costs and call arcs).  Returns 0, or -1 with ERR. */
int export_write_callgrind(const struct export_profile *p, FILE *out, struct tephra_error *err);

/* speedscope's file format: one sampled profile per thread, samples in time order
 * (P made with keep_samples; without threads, folded text: one profile of its stacks),
 * NAME the file's.  P's kept samples are consumed (export_samples_take): they are
 * regrouped by thread as they are freed.  Returns 0, or -1 with ERR. */
int export_write_speedscope(struct export_profile *p, const char *name, FILE *out,
			    struct tephra_error *err);

enum export_report_key { REPORT_BY_SYM, REPORT_BY_DSO, REPORT_BY_COMM };

struct export_report_options {
	enum export_report_key key;
	int sort_total;         /* sort by total (children) weight, else by self */
	size_t top;             /* rows shown (0: all) */
	int json;
	const char *source;     /* the input's name, for the heading */
	const char *countname;  /* what a count is (NULL: the profile says: time, the event,
				 * or samples; folded text says nothing: `tephra grind`'s
				 * and `emu`'s count instructions) */
};

/* `tephra report`: per function (object, comm) the weight of the samples whose leaf is
 * in it (self) and of those with it anywhere on the stack, once per stack (total), as
 * `perf report --no-children` / `--children` count them; a function is the containing
 * (not inlined) one of a frame in its object, named by its symbol, as perf report's
 * dso,sym keys.  Returns 0, or -1 with ERR. */
int export_write_report(const struct export_profile *p, const struct export_report_options *o,
			FILE *out, struct tephra_error *err);

/* Writes S (LEN bytes) as a JSON string, quotes included; bytes that are not valid
 * UTF-8 become U+FFFD. */
void export_json_string(FILE *out, const char *s, size_t len);

#endif
