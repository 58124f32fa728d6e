/* profile_source.c - perf.data or folded text into a flame tree (see profile_source.h). */
#include "profile_source.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Standard input holding perf.data: perf's reader wants a path, so the bytes go to a
 * temporary file first (pipe-mode perf.data starts with the same magic). */
static int load_perf_stdin(FILE *in, const char *magic, size_t got, struct flame_tree *t,
			   const struct profile_input_opts *o, struct profile_stats *st,
			   struct tephra_error *err)
{
	char tmpl[] = "/tmp/tephra-stdin-XXXXXX";
	int fd = mkstemp(tmpl);
	char buf[1 << 16];
	size_t n;
	FILE *tmp;
	int rc = -1;

	if (fd < 0 || !(tmp = fdopen(fd, "w"))) {
		tephra_error_set(err, "cannot create a temporary file for standard input: %s",
				 strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmpl);
		}
		return -1;
	}
	fwrite(magic, 1, got, tmp);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, tmp);
	if (ferror(in))
		tephra_error_at(err, "<stdin>", -1, "read error");
	else if (fclose(tmp) != 0)
		tephra_error_set(err, "%s: write error: %s", tmpl, strerror(errno));
	else
		rc = load_perf(tmpl, t, o, st, err);
	if (ferror(in))
		fclose(tmp);
	unlink(tmpl);
	return rc;
}

/* A stream that yields HEAD[0..LEN) and then the rest of REST. */
struct replay {
	const char *head;
	size_t len, pos;
	FILE *rest;
};

static ssize_t replay_read(void *cookie, char *buf, size_t size)
{
	struct replay *r = cookie;

	if (r->pos < r->len) {
		size_t n = r->len - r->pos < size ? r->len - r->pos : size;
		memcpy(buf, r->head + r->pos, n);
		r->pos += n;
		return (ssize_t)n;
	}
	size_t n = fread(buf, 1, size, r->rest);
	if (n == 0 && ferror(r->rest))
		return -1;
	return (ssize_t)n;
}

int profile_load(const char *path, struct flame_tree *t, const struct profile_input_opts *o,
		 struct profile_stats *st, struct tephra_error *err)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	char magic[8];
	size_t got;
	int rc;

	memset(st, 0, sizeof(*st));
	if (!f) {
		tephra_error_at(err, path, -1, "cannot open: %s", strerror(errno));
		return -1;
	}
	got = fread(magic, 1, sizeof(magic), f);
	if (got == sizeof(magic) && !memcmp(magic, "PERFILE2", 8)) {
		if (is_stdin)
			return load_perf_stdin(f, magic, got, t, o, st, err);
		fclose(f);
		return load_perf(path, t, o, st, err);
	}
	if (is_stdin) {
		/* The bytes looked at are gone from the pipe: read them back first. */
		struct replay replay = { magic, got, 0, f };
		cookie_io_functions_t io = { replay_read, NULL, NULL, NULL };
		FILE *joined = fopencookie(&replay, "r", io);
		if (!joined) {
			tephra_error_set(err, "cannot read standard input: %s", strerror(errno));
			return -1;
		}
		rc = load_folded(joined, name, t, o, st, err);
		fclose(joined);
		return rc;
	}
	rewind(f);
	rc = load_folded(f, name, t, o, st, err);
	fclose(f);
	return rc;
}

int profile_is_script_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char line[4096];
	int is = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		struct script_header h;
		is = script_match_header(line, strcspn(line, "\n"), &h);
		break;
	}
	fclose(f);
	return is;
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
