/* profile_input.c - perf.data or folded text into a flame tree (see profile_input.h). */
#include "render/profile_input.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "fold/fold_table.h"
#include "perffold/perf_fold.h"

struct perf_feed {
	struct flame_tree *t;
	const struct fold_table *table;
	const struct profile_input_opts *o;
	struct strbuf line;
	struct folded_stats *st;
};

/* Each perf stack goes through the folded-line parser, so a perf.data renders exactly
 * as its `tephra fold` output would. */
static void feed_line(struct perf_feed *f, double weight)
{
	struct folded_opts fo = { f->o->folded_flags | FOLDED_ONE_COLUMN, f->o->col, NULL, NULL };
	const char *why;
	int two = 0;

	strbuf_addf(&f->line, " %.0f", weight);
	if (folded_parse_line(f->line.buf, f->line.len, f->t, &fo, &two, &why) == 0)
		f->st->lines++;
	else
		f->st->bad_lines++;
}

static void feed_table_stack(void *arg, const uint32_t *frames, size_t n, uint64_t weight)
{
	struct perf_feed *f = arg;

	strbuf_reset(&f->line);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&f->line, ';');
		strbuf_addstr(&f->line, fold_table_frame_name(f->table, frames[i]));
	}
	feed_line(f, (double)weight);
}

static void feed_time_stack(void *arg, uint64_t time, const char *const *frames, size_t n,
			    uint64_t weight)
{
	struct perf_feed *f = arg;

	(void)time;
	strbuf_reset(&f->line);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&f->line, ';');
		strbuf_addstr(&f->line, frames[i]);
	}
	feed_line(f, (double)weight);
}

static int load_perf(const char *path, struct flame_tree *t, const struct profile_input_opts *o,
		     struct profile_stats *st, struct tephra_error *err)
{
	struct perf_fold_options po;
	struct perf_feed feed = { t, NULL, o, STRBUF_INIT, &st->folded };
	int rc;

	st->is_perf_data = 1;
	memset(&po, 0, sizeof(po));
	po.weight = o->count_samples ? PERF_FOLD_WEIGHT_SAMPLES : PERF_FOLD_WEIGHT_PERIOD;
	po.root = FOLD_ROOT_COMM;
	po.name_flags = o->name_flags;
	po.progress = o->progress;
	if (o->time_order) {
		rc = perf_foreach_stack(path, &po, feed_time_stack, &feed, err);
	} else {
		struct fold_table *table = fold_table_new();
		rc = perf_fold_file(path, &po, table, err);
		if (rc == 0) {
			feed.table = table;
			fold_table_each(table, feed_table_stack, &feed);
		}
		fold_table_free(table);
	}
	strbuf_release(&feed.line);
	return rc;
}

struct progress_state {
	const char *path;
	uint64_t size; /* 0 when unknown (a pipe) */
};

static void show_progress(void *arg, uint64_t bytes)
{
	struct progress_state *p = arg;

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
	struct folded_opts fo = { o->folded_flags, o->col, o->progress ? show_progress : NULL, &ps };
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

void profile_warn_skipped(const char *path, const struct profile_stats *st)
{
	const struct folded_stats *s = &st->folded;

	if (!s->bad_lines)
		return;
	if (st->is_perf_data) {
		fprintf(stderr, "tephra: %s: warning: ignored %" PRIu64 " stacks that could not be "
			"rendered\n", path, s->bad_lines);
		return;
	}
	fprintf(stderr, "tephra: %s: warning: ignored %" PRIu64 " line%s; the first, line %" PRIu64
		" at offset 0x%" PRIx64 ": %s\n", path, s->bad_lines, s->bad_lines == 1 ? "" : "s",
		s->first_bad_line, s->first_bad_offset, s->first_bad_why ? s->first_bad_why : "?");
}
