/* cmd_stat.c - `tephra stat [--records] [FILE]`: what a perf.data file holds.
 *
 * Prints the header facts, then reads every record and prints record counts by type,
 * samples per event and lost events.  --records instead prints one line per record in
 * delivery (time) order, for comparing with `perf script -D`; --build-ids the BUILD_ID
 * feature's entries.
 *
 * The report is a list of sections (stat_sections[]) that each see every record and then
 * print.  The stack-quality section of call-graph recordings (quality/stack_quality.h) reads
 * the file again as `perf script` would (frames named, user stacks unwound): standard
 * input is first copied into a memory file (cli_spool_stdin), so a piped recording gets
 * the same report as the file. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "perfdata/perf_reader.h"
#include "perfdata/perf_stat_print.h"
#include "quality/stack_quality.h"
#include "cli_files.h"

struct stat_options {
	const char *path;
	int records;
	int unordered;
	int build_ids;
	int force;
};

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	if (total)
		fprintf(stderr, "\rreading: %3u%%", (unsigned)(done * 100 / total));
	else
		fprintf(stderr, "\rreading: %llu MB", (unsigned long long)(done >> 20));
}

static int usage(FILE *f, int rc)
{
	fprintf(f, "usage: tephra stat [--records [--unordered] | --build-ids] [--force] [FILE]\n"
		   "Reports on a perf.data file: the header facts, record counts by type, samples\n"
		   "per event, lost events and samples and, for recordings with call graphs (DWARF\n"
		   "or frame pointers), the quality of the stacks.\n\n"
		   "  FILE         perf.data file (default ./perf.data, - = standard input)\n"
		   "  --records    print every record, one line each, in time order\n"
		   "  --unordered  with --records: in file order instead\n"
		   "  --build-ids  print the build-ids the file lists (as perf buildid-list)\n"
		   "  --force      read FILE even if root or you do not own it (as perf -f)\n");
	return rc;
}

static int parse_args(int argc, char **argv, struct stat_options *o)
{
	static const struct option opts[] = {
		{ "records", no_argument, NULL, 'r' },
		{ "unordered", no_argument, NULL, 'u' },
		{ "build-ids", no_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	o->path = "perf.data";
	/* getopt's complaints name argv[0], "tephra stat" (cli/main.c) */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o->records = 1;
			break;
		case 'u':
			o->unordered = 1;
			break;
		case 'b':
			o->build_ids = 1;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'h':
			return usage(stdout, 0) + 1;
		default:
			return usage(stderr, 2);
		}
	}
	/* a second file was silently read instead of the first */
	if (cli_check_inputs("tephra stat", argc, argv, optind, 0, 1))
		return 2;
	if (optind < argc)
		o->path = argv[optind];
	return 0;
}

/* A report section: sees every record, then prints.  The header/record section is the
 * first; further sections (e.g. stack quality) are added to stat_sections[] below. */
struct stat_section {
	void *(*begin)(struct perf_reader *r);           /* may return per-run state */
	void (*on_record)(void *state, const struct perf_event *ev);
	void (*print)(void *state, struct perf_reader *r, FILE *out);
	void (*end)(void *state);
};

static void print_record_counts(void *state, struct perf_reader *r, FILE *out)
{
	(void)state;
	perf_stat_print_records(out, r);
}

static const struct stat_section stat_sections[] = {
	{ NULL, NULL, print_record_counts, NULL },
};
#define NR_SECTIONS (sizeof(stat_sections) / sizeof(stat_sections[0]))

static void clear_progress(void)
{
	fputs("\r              \r", stderr);
}

static int report(struct perf_reader *r, int progress, struct tephra_error *err)
{
	void *state[NR_SECTIONS] = { 0 };
	struct perf_event ev;
	int rc;

	perf_stat_print_header(stdout, r);
	fflush(stdout); /* the header shows before the progress line */
	for (size_t i = 0; i < NR_SECTIONS; i++)
		if (stat_sections[i].begin)
			state[i] = stat_sections[i].begin(r);
	while ((rc = perf_reader_next(r, &ev, err)) > 0)
		for (size_t i = 0; i < NR_SECTIONS; i++)
			if (stat_sections[i].on_record)
				stat_sections[i].on_record(state[i], &ev);
	if (progress)
		clear_progress(); /* before the sections print on the same terminal */
	fflush(stdout);
	for (size_t i = 0; i < NR_SECTIONS; i++) {
		if (rc >= 0 && stat_sections[i].print)
			stat_sections[i].print(state[i], r, stdout);
		if (stat_sections[i].end)
			stat_sections[i].end(state[i]);
	}
	return rc;
}

static int dump_records(struct perf_reader *r, struct tephra_error *err)
{
	struct perf_event ev;
	int rc;

	while ((rc = perf_reader_next(r, &ev, err)) > 0)
		perf_stat_print_event_line(stdout, &ev);
	return rc;
}

/* Standard input's memory file ("/proc/self/fd/N"), named "<stdin>" in messages as the
 * reader names "-"; NULL when the input is a file. */
static const char *spooled_stdin;

/* "tephra stat: MSG", with standard input's memory file named <stdin>. */
static void stat_message(const char *msg)
{
	size_t n = spooled_stdin ? strlen(spooled_stdin) : 0;
	const char *at = n ? strstr(msg, spooled_stdin) : NULL;

	fputs("tephra stat: ", stderr);
	if (at) {
		fprintf(stderr, "%.*s<stdin>", (int)(at - msg), msg);
		msg = at + n;
	}
	fputs_escaped(msg, stderr);   /* names from a recording must not drive the terminal */
	fputc('\n', stderr);
}

/* The reader's warnings (odd feature sections, AUX data not decoded). */
static void stat_warn(void *ctx, const char *fmt, va_list ap)
{
	char msg[1024];

	(void)ctx;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	stat_message(msg);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_options o = { 0 };
	struct perf_reader_options ro = { 0 };
	struct tephra_error err = { { 0 } };
	struct perf_reader *r;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc == 1 ? 0 : rc;
	ro.unordered = o.unordered;
	ro.force = o.force;
	static const struct tephra_report progress = { stat_warn, show_progress, NULL, NULL };
	static const struct tephra_report quiet = { stat_warn, NULL, NULL, NULL };
	ro.report = &quiet;
	if (isatty(2) && !o.records && !o.build_ids)
		ro.report = &progress; /* progress on a terminal only */
	char spooled[64];
	int spool_fd = -1;
	if (!strcmp(o.path, "-") && !o.records && !o.build_ids) {
		spool_fd = cli_spool_stdin(spooled, sizeof(spooled));
		if (spool_fd < 0) {
			fprintf(stderr, "tephra stat: standard input: cannot keep it in memory: %s\n",
				strerror(errno));
			return 1;
		}
		o.path = spooled;
		spooled_stdin = spooled;
	}
	if (perf_reader_open(&r, o.path, &ro, &err)) {
		stat_message(err.msg);
		if (spool_fd >= 0)
			close(spool_fd);
		return 1;
	}
	if (perf_reader_header(r)->unfinished)
		fprintf(stderr, "tephra stat: warning: %s: data size is 0: was perf record "
			"properly terminated?\n", o.path);
	if (o.build_ids)
		rc = (perf_stat_print_build_ids(stdout, r), 0);
	else if (o.records)
		rc = dump_records(r, &err);
	else
		rc = report(r, ro.report == &progress, &err);
	perf_reader_close(r);
	if (rc >= 0 && !o.build_ids && !o.records && strcmp(o.path, "-")) {
		fflush(stdout);
		rc = stack_quality_report_file(o.path, o.force, stdout, &err);
	}
	if (spool_fd >= 0)
		close(spool_fd);
	if (rc < 0) {
		fflush(stdout);
		stat_message(err.msg);
		return 1;
	}
	return 0;
}
