/* fold_text_driver.c - test driver: folds perf script text read from files (or "-")
 * with stackcollapse-perf.pl's options and writes the folded lines to stdout.
 *   fold-text [--pid] [--tid] [--kernel] [--jit] [--all] [--addrs]
 *             [--srcline] [--event-filter=EVENT] [--stats] [FILE...]
 * Warnings go to stderr; --stats prints the counters to stderr at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "perfscript/perf_script_text.h"

int main(int argc, char **argv)
{
	struct fold_text_stats stats;
	struct fold_text_options o = { .root = FOLD_ROOT_COMM, .warnings = stderr,
				       .stats = &stats };
	struct fold_table *t = fold_table_new();
	struct tephra_error err;
	int nr_files = 0, show_stats = 0, ret = 0;
	const char *files[256];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--pid"))
			o.root = o.root == FOLD_ROOT_TID ? FOLD_ROOT_TID : FOLD_ROOT_PID;
		else if (!strcmp(a, "--tid"))
			o.root = FOLD_ROOT_TID;
		else if (!strcmp(a, "--kernel"))
			o.frame_flags |= FOLD_KERNEL;
		else if (!strcmp(a, "--jit"))
			o.frame_flags |= FOLD_JIT;
		else if (!strcmp(a, "--all"))
			o.frame_flags |= FOLD_KERNEL | FOLD_JIT;
		else if (!strcmp(a, "--addrs"))
			o.frame_flags |= FOLD_ADDRS;
		else if (!strncmp(a, "--event-filter=", 15))
			o.event_filter = a + 15;
		else if (!strcmp(a, "--srcline"))
			o.srcline = 1;
		else if (!strcmp(a, "--stats"))
			show_stats = 1;
		else if (a[0] == '-' && a[1])
			return fprintf(stderr, "fold-text: unknown option %s\n", a), 2;
		else if (nr_files < 256)
			files[nr_files++] = a;
	}
	if (!nr_files)
		files[nr_files++] = "-";

	/* Each file is its own stream folded into the one table (unlike the script's <>,
	 * the event filter and an unfinished sample do not carry over). */
	for (int i = 0; i < nr_files && !ret; i++) {
		FILE *in = strcmp(files[i], "-") ? fopen(files[i], "r") : stdin;
		if (!in) {
			perror(files[i]);
			ret = 1;
			break;
		}
		if (fold_perf_script_text(in, files[i], t, &o, &err)) {
			fprintf(stderr, "fold-text: %s\n", err.msg);
			ret = 1;
		}
		if (in != stdin)
			fclose(in);
	}
	if (fold_table_write(t, stdout))
		ret = 1;
	if (show_stats)
		fprintf(stderr,
			"lines %" PRIu64 " samples %" PRIu64 " filtered %" PRIu64
			" unrecognized %" PRIu64 " event %s\n",
			stats.lines, stats.samples, stats.filtered, stats.unrecognized,
			stats.event);
	fold_table_free(t);
	return ret;
}
