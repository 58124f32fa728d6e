/* cmd_heatmap.c - `tephra heatmap`: a perf.data file's samples as a subsecond-offset
 * heatmap page with the flame graph of any selection (render/heatmap.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_files.h"
#include "cli_number.h"
#include "cli_report.h"
#include "commands.h"
#include "export_source.h"
#include "symbol_cli.h"
#include "perffold/perf_fold.h"
#include "render/heatmap.h"
#include "session/sample_filter.h"

#define WHO "tephra heatmap"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tephra heatmap [options] [FILE] [-o heatmap.html]\n"
		"Writes one self-contained HTML page: the samples of perf.data FILE (default\n"
		"./perf.data; '-' reads a pipe-mode stream) as a heatmap, columns the seconds since\n"
		"the first sample, rows the offsets within the second; selecting cells shows the\n"
		"flame graph of exactly their samples, and the selection is kept in the URL.\n"
		"Folded stacks have no sample times: they are refused.  Without -o the page goes\n"
		"to standard output, or to ./heatmap.html when that is a terminal.\n\n"
		"  -o, --output FILE      where to write the page ('-': standard output)\n"
		"      --title TEXT       the page's title (default: Heatmap)\n"
		"      --rows N           rows per second at first (default 50: 20 ms cells)\n"
		"      --weight W         period (default: sum of sample periods) or samples\n"
		"      --pid, --tid       root is comm-PID, comm-PID/TID (as tephra fold)\n"
		"      --all, --compat    --kernel --jit; names as tephra fold --compat\n"
		"      --strict           damaged input is an error, not a warning\n"
		"      --off-cpu, --wall, --preempted\n"
		"                         refused: the page places on-CPU samples only\n"
		EXPORT_SOURCE_HELP);
	symbol_cli_usage(f, 25, 1);
}

enum { O_TITLE = 256, O_ROWS, O_STRICT };

/* PATH, a file (not "-"), must hold perf.data: folded stacks and perf script text have
 * no sample times to place.  A directory is left to the reader (perf record --threads).
 * Returns 0, or 1 after saying why not. */
static int refuse_non_perf_data(const char *path)
{
	struct stat sb;
	int perf = cli_is_perf_data(path);
	if (perf > 0)
		return 0;
	if (perf < 0)
		fprintf(stderr, WHO ": %s: cannot open: %s\n", path, strerror(errno));
	else if (stat(path, &sb) == 0 && sb.st_size == 0)
		fprintf(stderr, WHO ": %s: empty file, not a perf.data file\n", path);
	else
		fprintf(stderr, WHO ": %s: not a perf.data file; a heatmap needs each sample's "
			"time, which folded stacks and other text do not have\n", path);
	return 1;
}

int cmd_heatmap(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, O_TITLE },
		{ "rows", required_argument, NULL, O_ROWS },
		EXPORT_SOURCE_LONG_OPTIONS,
		EXPORT_SOURCE_NAMING_LONG_OPTIONS,
		SYMBOL_CLI_LONG_OPTIONS,
		{ "strict", no_argument, NULL, O_STRICT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct perf_fold_options o = { 0 };
	struct symbol_options syms = { 0 };
	o.symbols = &syms;
	struct perf_fold_info info = { { 0 }, 0, 0 };
	struct heatmap_opts ho = { NULL, NULL, NULL, 0, 50 };
	struct tephra_error err = { { 0 } };
	const char *path = NULL, *output = NULL;
	int c, option, rc = 2;
	struct heatmap *h = NULL;
	while ((c = getopt_long(argc, argv, "o:fh", opts, &option)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case O_TITLE:
			ho.title = optarg;
			break;
		case O_ROWS: {
			uint64_t n;
			if (cli_number_u64(WHO, "--rows", optarg, 1, 1000, &n))
				goto out;
			ho.rows = (unsigned)n;
			break;
		}
		case O_STRICT:
			o.strict = 1;
			break;
		case EXPORT_O_OFF_CPU:
		case EXPORT_O_WALL:
		case EXPORT_O_PREEMPTED:
			fprintf(stderr, WHO ": --off-cpu, --wall and --preempted are not supported: a heatmap "
				"places on-CPU samples (use tephra fold or flamegraph for them)\n");
			goto out;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			if (c == 'f') /* perf's -f: --force */
				c = SYMBOL_O_FORCE;
			if (symbol_cli_option(&syms, c, optarg))
				break;
			if (export_source_is_option(c)) {
				if (export_source_option(&o, c, opts[option].name, optarg, WHO))
					goto out;
				break;
			}
			usage(stderr);
			goto out;
		}
	}
	if (cli_check_inputs(WHO, argc, argv, optind, 0, 1))
		goto out;
	if (optind < argc)
		path = argv[optind++];
	if (!path)
		path = "perf.data";
	if (!output && isatty(1)) {
		output = "heatmap.html";
		fprintf(stderr, WHO ": standard output is a terminal: writing %s\n", output);
	}
	int to_stdout = !output || !strcmp(output, "-");
	if (to_stdout && isatty(1)) {
		fprintf(stderr, WHO ": not writing a page to a terminal: give -o FILE\n");
		goto out;
	}
	if (!to_stdout && cli_out_probe(WHO, output) != 0) {
		rc = 1;
		goto out;
	}
	rc = 1;
	if (strcmp(path, "-") && refuse_non_perf_data(path))
		goto out;
	o.report = cli_report(isatty(2));
	o.info = &info;
	h = heatmap_new();
	struct stack_sink sink = heatmap_sink(h);
	if (perf_foreach_stack(path, &o, &sink, &err)) {
		fprintf(stderr, WHO ": %s\n", err.msg);
		goto out;
	}
	if (!heatmap_samples(h)) {
		fprintf(stderr, WHO ": %s: no samples to draw%s\n", path,
			o.filter.pids || o.filter.tids || o.filter.comms || o.filter.event || o.filter.time ? " (after the filters)" : "");
		goto out;
	}
	ho.event = info.event[0] ? info.event : NULL;
	ho.time_ns = info.time_ns && o.weight == PERF_FOLD_WEIGHT_PERIOD;
	ho.subtitle = path;
	struct out_file of;
	FILE *out = cli_out_open(&of, WHO, to_stdout ? "-" : output);
	if (!out)
		goto out;
	if (cli_out_close(&of, WHO, heatmap_write_html(h, &ho, out) == 0) != 0)
		goto out;
	rc = 0;
out:
	heatmap_free(h);
	sample_filter_free(&o.filter);
	return rc;
}
