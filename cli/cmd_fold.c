/* cmd_fold.c - `tephra fold`: perf.data → folded stacks, the lines
 * `perf script | stackcollapse-perf.pl` prints. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_report.h"
#include "cli_files.h"
#include "commands.h"
#include "export_source.h"
#include "profile_source.h"
#include "perffold/perf_fold.h"
#include "perfscript/perf_script_text.h"
#include "session/sample_filter.h"
#include "symbol_cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tephra fold [options] [FILE]\n"
		"Folds the samples of FILE (default ./perf.data; '-' reads a pipe-mode stream from\n"
		"standard input) into one line per unique stack, 'comm;outer;...;leaf weight',\n"
		"sorted.  The root is the thread's comm; frames keep their whole names.\n\n"
		"  -i, --input FILE       the perf.data file\n"
		"      --event NAME       fold only this event, named as perf script prints it\n"
		"                         (default: the first one sampled; an unknown NAME is an\n"
		"                         error listing the recording's events)\n"
		"                         (--event-filter NAME: the same, stackcollapse-perf.pl's name)\n"
		"      --weight W         period (default: sum of sample periods) or samples\n"
		"      --pid              root is comm-PID      (stackcollapse-perf.pl --pid)\n"
		"      --tid              root is comm-PID/TID  (stackcollapse-perf.pl --tid)\n"
		"      --kernel           kernel frames get _[k]\n"
		"      --jit              JIT frames (/tmp/perf-PID.map) get _[j]\n"
		"      --all              --kernel and --jit\n"
		"      --addrs            unknown frames keep their address: [dso <addr>]\n"
		"      --only-pid LIST    only samples of these processes  (perf script --pid)\n"
		"      --only-tid LIST    only samples of these threads    (perf script --tid)\n"
		"      --comms LIST       only samples of these comms      (perf script --comms)\n"
		"      --max-stack N      at most N frames per sample (default 127, as perf script)\n"
		"      --time RANGES      only samples in these times (perf script --time): START,END\n"
		"                         in seconds (blank-separated), or A%%-B%%, A%%/N\n"
		"                         (--off-cpu, --wall: the waits' parts in them)\n"
		"      --guest            also the samples taken in a guest (perf kvm), hidden by\n"
		"                         default as perf script and perf report hide them\n"
		"      --inline           expand every user frame into the functions inlined at it\n"
		"                         (DWARF), the inlined ones marked _[i]\n"
		"      --srcline          append ':file:line' to user frames (DWARF); with --from-text\n"
		"                         the input is `perf script -F+srcline` (stackcollapse --srcline)\n"
		"      --compat           name roots and frames exactly as\n"
		"                         `perf script | stackcollapse-perf.pl` does\n"
		"      --from-text        FILE is `perf script` text, folded as stackcollapse-perf.pl\n"
		"                         does (always --compat; honours --event, --pid, --tid, --kernel, --jit, --all,\n"
		"                         --addrs, --srcline)\n"
		"      --strict           damaged input (a cut stream or file, junk after the last\n"
		"                         record, a killed perf record's file) is an error, not a\n"
		"                         warning after the whole records\n"
		"      --off-cpu          fold sched:sched_switch samples, each weighted with the\n"
		"                         nanoseconds its thread then waited off the CPU (blocked:\n"
		"                         S, D, ...; see docs/offcpu.md)\n"
		"      --preempted        with --off-cpu or --wall, time preempted (R, R+) too\n"
		"      --wall             wall clock: on-CPU samples (cpu-clock/task-clock, ns) and\n"
		"                         off-CPU time, under a leaf frame '[off-cpu: STATE]'\n"
		"  -q, --quiet            no stack-quality report on stderr\n");
	symbol_cli_usage(f, 25, 1);
}

/* --from-text: `perf script` text from PATH ("-" = standard input). */
static int fold_text(const char *path, const struct perf_fold_options *po)
{
	struct fold_text_options o = { 0 };
	struct tephra_error err = { { 0 } };
	o.frame_flags = po->name_flags;
	o.root = po->root;
	o.event_filter = po->event;
	o.srcline = po->srcline;
	o.report = cli_report(0); /* as the script warns of lines it does not recognize */
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!in) {
		fprintf(stderr, "tephra fold: %s: cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	struct fold_table *t = fold_table_new();
	int rc = 0;
	if (fold_perf_script_text(in, path, t, &o, &err)) {
		fprintf(stderr, "tephra fold: %s\n", err.msg);
		rc = 1;
	}
	if (in != stdin)
		fclose(in);
	if (fold_table_write(t, stdout) || fflush(stdout)) {
		fprintf(stderr, "tephra fold: write error: %s\n", strerror(errno ? errno : EIO));
		rc = 1;
	}
	fold_table_free(t);
	return rc;
}

enum { O_ADDRS = 256, O_SRCLINE, O_FROM_TEXT, O_STRICT };

int cmd_fold(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		EXPORT_SOURCE_LONG_OPTIONS,
		{ "event-filter", required_argument, NULL, EXPORT_O_EVENT },
		EXPORT_SOURCE_NAMING_LONG_OPTIONS,
		{ "addrs", no_argument, NULL, O_ADDRS },
		{ "srcline", no_argument, NULL, O_SRCLINE },
		{ "from-text", no_argument, NULL, O_FROM_TEXT },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "quiet", no_argument, NULL, 'q' },
		SYMBOL_CLI_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct perf_fold_options o = { 0 };
	struct symbol_options syms = { 0 };
	struct tephra_error err = { { 0 } };
	const char *path = NULL;
	int c, option, rc = 2, quiet = 0, from_text = 0, data_only = 0;
	while ((c = getopt_long(argc, argv, "i:qfh", opts, &option)) != -1) {
		if (c == 'f') /* perf's -f: --force */
			c = SYMBOL_O_FORCE;
		if (symbol_cli_option(&syms, c, optarg)) {
			data_only = 1;
			continue;
		}
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case O_ADDRS:
			o.name_flags |= FOLD_ADDRS;
			break;
		case O_SRCLINE:
			o.srcline = 1;
			break;
		case O_FROM_TEXT:
			from_text = 1;
			break;
		case O_STRICT:
			o.strict = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			if (export_source_is_option(c)) {
				if (export_source_option(&o, c, opts[option].name, optarg,
							 "tephra fold"))
					goto out;
				break;
			}
			usage(stderr);
			goto out;
		}
	}
	/* what only a perf.data has (perf script text has no inline chains, periods, ...) */
	if ((o.name_flags & FOLD_INLINED) || o.weight == PERF_FOLD_WEIGHT_SAMPLES || o.off_cpu ||
	    o.wall || o.filter.pids || o.filter.tids || o.filter.comms || o.filter.max_stack ||
	    o.filter.time)
		data_only = 1;
	if (cli_check_inputs("tephra fold", argc, argv, optind, 0, 1))
		goto out;
	if (optind < argc)
		path = argv[optind++];
	if (export_source_check_offcpu(&o, "tephra fold"))
		goto out;
	if (from_text) {
		if (data_only) {
			fprintf(stderr, "tephra fold: --from-text folds as stackcollapse-perf.pl does: "
				"--inline, --weight samples, --only-pid, --only-tid, --comms, "
				"--max-stack, --time, --off-cpu, --wall, --symfs, --kallsyms and --buildid-dir "
				"are for perf.data input\n");
			goto out;
		}
		rc = fold_text(path ? path : "-", &o);
		goto out;
	}
	if (!path)
		path = "perf.data";
	o.symbols = &syms;
	o.report = cli_report(isatty(2));
	o.quality = quiet ? NULL : stderr;
	o.quality_who = "tephra fold";
	struct fold_table *t = fold_table_new();
	rc = 0;
	/* standard input is looked at first: once read, it cannot be looked at again */
	int script_text = !strcmp(path, "-") && profile_is_script_text(path);
	if (script_text || perf_fold_file(path, &o, t, &err)) {
		if (script_text || (strcmp(path, "-") && profile_is_script_text(path)))
			fprintf(stderr, "tephra fold: %s: `perf script` text, not a perf.data file: "
				"fold it with --from-text\n", strcmp(path, "-") ? path : "<stdin>");
		else
			fprintf(stderr, "tephra fold: %s\n", err.msg);
		rc = 1;
	}
	/* what was folded before an error is still printed */
	if (fold_table_write(t, stdout) || fflush(stdout)) {
		fprintf(stderr, "tephra fold: write error: %s\n", strerror(errno ? errno : EIO));
		rc = 1;
	}
	fold_table_free(t);
out:
	sample_filter_free(&o.filter);
	return rc;
}
