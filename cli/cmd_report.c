/* cmd_report.c - `tephra report`: the top functions of a profile by self and total
 * weight, as a table or JSON (src/export/report_write.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_number.h"
#include "cli_files.h"
#include "commands.h"
#include "export/export_write.h"
#include "export_source.h"
#include "symbol_cli.h"

#define WHO "tephra report"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tephra report [options] [FILE]\n"
		"The top functions of FILE (perf.data, default ./perf.data, or the directory perf\n"
		"record --threads writes; or folded stacks; '-': either from standard input, the\n"
		"perf.data a pipe-mode stream) by self weight (samples whose leaf is in the\n"
		"function) and total weight (samples with the function anywhere on the stack,\n"
		"counted once),\n"
		"with percentages of all samples, as `perf report --no-children` / `--children`.\n\n"
		"  -s, --sort-key KEY     sym (default: functions), dso (objects) or comm\n"
		"      --sort WHICH       self (default) or total\n"
		"  -n, --top N            the first N rows (default 25; 0: all; at most 10^9)\n"
		"      --countname TEXT   what a count is (default: the profile says it: time\n"
		"                         for cpu-clock/task-clock, else the event; folded\n"
		"                         text does not: samples; grind's and emu's count\n"
		"                         instructions), as flamegraph's --countname\n"
		"      --addrs            code with no symbol by object and address,\n"
		"                         '[dso <addr>]' (default: one row per object, '[dso]')\n"
		"      --json             one JSON object: source, event, unit, total, samples,\n"
		"                         key, rows [{name, object (-s sym), self,\n"
		"                         self_percent, total, total_percent}]\n"
		EXPORT_SOURCE_HELP EXPORT_SOURCE_OFFCPU_HELP);
	symbol_cli_usage(f, 25, 1);
}

enum { O_SORT = 400, O_JSON, O_ADDRS, O_COUNTNAME };

/* --top: more rows than any profile has functions is "all" (0) in other words */
#define REPORT_TOP_MAX 1000000000

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sort-key", required_argument, NULL, 's' },
		{ "sort", required_argument, NULL, O_SORT },
		{ "top", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, O_JSON },
		{ "addrs", no_argument, NULL, O_ADDRS },
		{ "countname", required_argument, NULL, O_COUNTNAME },
		{ "help", no_argument, NULL, 'h' },
		EXPORT_SOURCE_LONG_OPTIONS,
		SYMBOL_CLI_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct perf_fold_options o = { 0 };
	struct symbol_options syms = { 0 };
	struct export_report_options ro = { REPORT_BY_SYM, 0, 25, 0, NULL, NULL };
	const char *path = "perf.data";
	int c, option, rc = 2;
	o.symbols = &syms;
	while ((c = getopt_long(argc, argv, "s:n:fh", opts, &option)) != -1) {
		switch (c) {
		case 's':
			if (!strcmp(optarg, "sym"))
				ro.key = REPORT_BY_SYM;
			else if (!strcmp(optarg, "dso"))
				ro.key = REPORT_BY_DSO;
			else if (!strcmp(optarg, "comm"))
				ro.key = REPORT_BY_COMM;
			else {
				fprintf(stderr, WHO ": -s is sym, dso or comm\n");
				goto out;
			}
			break;
		case O_SORT:
			if (strcmp(optarg, "self") && strcmp(optarg, "total")) {
				fprintf(stderr, WHO ": --sort is self or total\n");
				goto out;
			}
			ro.sort_total = !strcmp(optarg, "total");
			break;
		case 'n': {
			uint64_t n;
			if (cli_number_u64(WHO, "--top", optarg, 0, REPORT_TOP_MAX, &n))
				goto out;
			ro.top = (size_t)n;
			break;
		}
		case O_JSON:
			ro.json = 1;
			break;
		case O_COUNTNAME:
			ro.countname = optarg;
			break;
		case O_ADDRS:
			o.name_flags |= FOLD_ADDRS;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		case '?':
			usage(stderr);
			goto out;
		default:
			if (c == 'f') /* perf's -f: --force */
				c = SYMBOL_O_FORCE;
			if (symbol_cli_option(&syms, c, optarg))
				break;
			if (export_source_option(&o, c, opts[option].name, optarg, WHO))
				goto out;
			break;
		}
	}
	if (export_source_check_offcpu(&o, WHO))
		goto out;
	if (cli_check_inputs(WHO, argc, argv, optind, 0, 1))
		goto out;
	if (optind < argc)
		path = argv[optind++];
	struct export_profile *p = export_profile_new(0);
	int64_t time_nanos;
	struct tephra_error err = { { 0 } };
	ro.source = path;
	rc = export_source_load(path, &o, p, &time_nanos, WHO);
	if (!rc && (export_write_report(p, &ro, stdout, &err) || fflush(stdout))) {
		fprintf(stderr, WHO ": write error: %s\n", strerror(errno ? errno : EIO));
		rc = 1;
	}
	export_profile_free(p);
out:
	sample_filter_free(&o.filter);
	return rc;
}
