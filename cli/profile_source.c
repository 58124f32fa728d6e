/* profile_source.c - perf.data or folded text into a flame tree (see profile_source.h). */
#include "profile_source.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_files.h"
#include "cli_report.h"
#include "fold/fold_table.h"
#include "perffold/perf_fold.h"
#include "perfscript/perf_script_line.h"

/* Time-ordered perf.data with sample counts: each sample to both feeds. */
struct two_feeds {
	struct stack_sink weight, samples;
};

static void two_feeds_stack(void *ctx, const char *const *frames, size_t n, uint64_t weight,
			    uint64_t time)
{
	struct two_feeds *f = ctx;
	f->weight.stack(f->weight.ctx, frames, n, weight, time);
	f->samples.stack(f->samples.ctx, frames, n, 1, time);
}

/* perf.data: its stacks go straight into the tree through a folded_feed, which adds
 * them as their `tephra fold` lines would be read, so a perf.data renders exactly as its
 * fold output does. */
static int load_perf(const char *path, struct flame_tree *t, const struct profile_input_opts *o,
		     struct profile_stats *st, struct tephra_error *err)
{
	struct perf_fold_options po;
	struct folded_opts fo = { o->folded_flags | FOLDED_ONE_COLUMN, o->col, NULL };
	struct folded_feed *feed = folded_feed_new(t, &fo, &st->folded);
	struct stack_sink sink = folded_feed_sink(feed);
	struct folded_opts so = { fo.flags, 1, NULL };
	struct folded_stats sst = { 0 };
	/* off-CPU weights are nanoseconds of intervals, not samples: no sample column */
	int offcpu = o->off_cpu || o->wall;
	struct folded_feed *samples = o->samples_col && !offcpu ? folded_feed_new(t, &so, &sst)
								: NULL;
	struct two_feeds both = { sink, { NULL, NULL } };
	struct fold_table *counts = NULL;
	int rc;

	st->is_perf_data = 1;
	memset(&po, 0, sizeof(po));
	po.weight = o->count_samples ? PERF_FOLD_WEIGHT_SAMPLES : PERF_FOLD_WEIGHT_PERIOD;
	po.root = FOLD_ROOT_COMM;
	po.name_flags = o->name_flags;
	po.compat = o->compat;
	po.info = &st->perf;
	po.quality = o->quality;
	po.quality_who = o->quality_who;
	if (samples) {
		st->samples_col = 1;
		both.samples = folded_feed_sink(samples);
		counts = fold_table_new();
		po.samples = counts;
	}
	po.report = cli_report(o->progress);
	po.off_cpu = o->off_cpu;
	po.wall = o->wall;
	po.off_cpu_preempted = o->preempted;
	po.symbols = o->symbols;
	if (o->time && sample_filter_parse(&po.filter, SAMPLE_FILTER_TIME, "time", o->time, err))
		rc = -1;
	else if (offcpu && (o->time_order || o->count_samples || o->off_cpu == o->wall)) {
		tephra_error_set(err, "%s", o->off_cpu == o->wall ? "--off-cpu and --wall are "
				 "two profiles: pick one" : "--off-cpu and --wall weigh stacks in "
				 "nanoseconds: not with --flamechart or --weight samples");
		rc = -1;
	} else if (o->time_order) {
		struct stack_sink two = { two_feeds_stack, &both };
		rc = perf_foreach_stack(path, &po, samples ? &two : &sink, err);
	} else {
		struct fold_table *table = fold_table_new();
		rc = perf_fold_file(path, &po, table, err);
		if (rc == 0)
			fold_table_emit(table, &sink);
		if (rc == 0 && counts)
			fold_table_emit(counts, &both.samples);
		fold_table_free(table);
	}
	if (offcpu) { /* the graph's unit: nanoseconds */
		snprintf(st->perf.event, sizeof(st->perf.event), "%s", o->wall ? "wall" : "off-cpu");
		st->perf.time_ns = 1;
	}
	sample_filter_free(&po.filter);
	fold_table_free(counts);
	folded_feed_free(feed);
	if (samples)
		folded_feed_free(samples);
	return rc;
}

struct progress_state {
	const char *path;
	uint64_t size; /* 0 when unknown (a pipe) */
};

static void show_progress(void *arg, uint64_t bytes, uint64_t total)
{
	struct progress_state *p = arg;

	(void)total; /* the reader does not know it; the file's size is in P */
	if (p->size)
		fprintf(stderr, "\rtephra: reading %s: %" PRIu64 " of %" PRIu64 " MiB (%.0f%%)",
			p->path, bytes >> 20, p->size >> 20, 100.0 * (double)bytes / (double)p->size);
	else
		fprintf(stderr, "\rtephra: reading %s: %" PRIu64 " MiB", p->path, bytes >> 20);
}

static int load_folded(FILE *f, const char *path, struct flame_tree *t,
		       const struct profile_input_opts *o, struct profile_stats *st,
		       struct tephra_error *err)
{
	struct progress_state ps = { path, 0 };
	struct stat sb;

	if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode))
		ps.size = (uint64_t)sb.st_size;
	struct tephra_report progress = { NULL, show_progress, NULL, &ps };
	struct folded_opts fo = { o->folded_flags, o->col, o->progress ? &progress : NULL };
	int rc = folded_read(f, path, t, &fo, &st->folded, err);

	if (o->progress && st->folded.bytes >= (16u << 20))
		fprintf(stderr, "\r\033[K");
	return rc;
}

int profile_load(const char *path, struct flame_tree *t, const struct profile_input_opts *o,
		 struct profile_stats *st, struct tephra_error *err)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	int rc;

	memset(st, 0, sizeof(*st));
	/* perf.data (a file, a pipe-mode stream, a directory) or folded text */
	int perf = cli_is_perf_data(path);
	if (perf < 0) {
		tephra_error_at(err, name, -1, "cannot %s: %s", is_stdin ? "read" : "open",
				strerror(errno));
		return -1;
	}
	if (perf)
		return load_perf(path, t, o, st, err);
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		tephra_error_at(err, path, -1, "cannot open: %s", strerror(errno));
		return -1;
	}
	rc = load_folded(f, name, t, o, st, err);
	if (!is_stdin)
		fclose(f);
	const struct folded_stats *fs = &st->folded;
	if (rc == 0 && profile_not_folded(fs->lines, fs->bad_lines)) {
		if (profile_is_script_text(path))
			tephra_error_at(err, name, -1, "`perf script` text, not folded stacks: "
					"fold it with tephra fold --from-text first");
		else
			tephra_error_at(err, name, -1, "not folded stacks: %" PRIu64 " of %" PRIu64
					" lines are not 'frame;...;frame count' (the first, line %"
					PRIu64 ": %s)", fs->bad_lines, fs->bad_lines + fs->lines,
					fs->first_bad_line, fs->first_bad_why ? fs->first_bad_why : "?");
		return -1;
	}
	return rc;
}

int profile_is_script_text(const char *path)
{
	char head[CLI_STDIN_PEEK_MAX + 1];
	ssize_t got;
	if (!strcmp(path, "-")) {
		got = cli_stdin_peek(head, sizeof(head) - 1);
	} else {
		FILE *f = fopen(path, "rb");
		if (!f)
			return 0;
		got = (ssize_t)fread(head, 1, sizeof(head) - 1, f);
		fclose(f);
	}
	if (got <= 0)
		return 0;
	head[got] = 0;
	/* the first line that is not a comment, if it is whole in HEAD */
	for (char *line = head; *line;) {
		char *nl = strchr(line, '\n');
		if (!nl)
			return 0;
		if (line[0] != '#') {
			struct script_header h;
			return script_match_header(line, (size_t)(nl - line), &h);
		}
		line = nl + 1;
	}
	return 0;
}

void profile_warn_skipped(const char *who, const char *path, const struct profile_stats *st)
{
	const struct folded_stats *s = &st->folded;

	if (!s->bad_lines)
		return;
	if (st->is_perf_data) {
		fprintf(stderr, "%s: %s: warning: ignored %" PRIu64 " stacks that could not be "
			"rendered\n", who, path, s->bad_lines);
		return;
	}
	fprintf(stderr, "%s: %s: warning: ignored %" PRIu64 " line%s; the first, line %" PRIu64
		" at offset 0x%" PRIx64 ": %s\n", who, path, s->bad_lines, s->bad_lines == 1 ? "" : "s",
		s->first_bad_line, s->first_bad_offset, s->first_bad_why ? s->first_bad_why : "?");
}
