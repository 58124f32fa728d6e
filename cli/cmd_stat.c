/* cmd_stat.c - `tephra stat [--records] [FILE]`: what a perf.data file holds.
 *
 * Prints the header facts, then reads every record and prints record counts by type,
 * samples per event and lost events.  --records instead prints one line per record in
 * delivery (time) order, for comparing with `perf script -D`; --build-ids the BUILD_ID
 * feature's entries. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/perf_record_reader.h"
#include "perfdata/perf_stat_report.h"

struct stat_options {
	const char *path;
	int records;
	int unordered;
	int build_ids;
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
	fprintf(f, "usage: tephra stat [--records [--unordered] | --build-ids] [FILE]\n"
		   "  FILE         perf.data file (default ./perf.data, - = standard input)\n"
		   "  --records    print every record, one line each, in time order\n"
		   "  --unordered  with --records: in file order instead\n"
		   "  --build-ids  print the build-ids the file lists (as perf buildid-list)\n");
	return rc;
}

static int parse_args(int argc, char **argv, struct stat_options *o)
{
	o->path = "perf.data";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--records"))
			o->records = 1;
		else if (!strcmp(argv[i], "--unordered"))
			o->unordered = 1;
		else if (!strcmp(argv[i], "--build-ids"))
			o->build_ids = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return usage(stdout, 0) + 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage(stderr, 2);
		else
			o->path = argv[i];
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_options o = { 0 };
	struct perf_reader_options ro = { 0 };
	struct tephra_error err = { { 0 } };
	struct perf_reader *r;
	struct perf_event ev;
	int rc = parse_args(argc, argv, &o), tty = isatty(2);

	if (rc)
		return rc == 1 ? 0 : rc;
	ro.unordered = o.unordered;
	if (tty && !o.records) {
		ro.progress = show_progress;
	}
	if (perf_reader_open(&r, o.path, &ro, &err)) {
		fprintf(stderr, "tephra stat: %s\n", err.msg);
		return 1;
	}
	if (perf_reader_header(r)->unfinished)
		fprintf(stderr, "tephra stat: warning: %s: data size is 0: was perf record "
			"properly terminated?\n", o.path);
	if (o.build_ids) {
		perf_stat_print_build_ids(stdout, r);
		perf_reader_close(r);
		return 0;
	}
	if (!o.records)
		perf_stat_print_header(stdout, r);
	while ((rc = perf_reader_next(r, &ev, &err)) > 0)
		if (o.records)
			perf_stat_print_event_line(stdout, &ev);
	if (ro.progress)
		fputs("\r              \r", stderr);
	if (!o.records)
		perf_stat_print_records(stdout, r);
	perf_reader_close(r);
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "tephra stat: %s\n", err.msg);
		return 1;
	}
	return 0;
}
