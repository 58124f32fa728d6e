/* cmd_fold.c - `tephra fold`: perf.data → folded stacks, the lines
 * `perf script | stackcollapse-perf.pl` prints. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_report.h"
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
	symbol_cli_usage(f, 25);
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
		fprintf(stderr, "tephra fold: writing output failed\n");
		rc = 1;
	}
	fold_table_free(t);
	return rc;
}

enum { O_EVENT = 256, O_WEIGHT, O_PID, O_TID, O_KERNEL, O_JIT, O_ALL, O_ADDRS, O_INLINE,
       O_ONLY_PID, O_ONLY_TID, O_COMMS, O_MAX_STACK, O_SRCLINE, O_FROM_TEXT, O_COMPAT,
       O_STRICT, O_OFF_CPU, O_PREEMPTED, O_WALL, O_TIME };

static enum sample_filter_kind filter_kind(int option)
{
	switch (option) {
	case O_ONLY_PID: return SAMPLE_FILTER_PIDS;
	case O_ONLY_TID: return SAMPLE_FILTER_TIDS;
	case O_COMMS: return SAMPLE_FILTER_COMMS;
	case O_TIME: return SAMPLE_FILTER_TIME;
	default: return SAMPLE_FILTER_MAX_STACK;
	}
}

int cmd_fold(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "event", required_argument, NULL, O_EVENT },
		{ "event-filter", required_argument, NULL, O_EVENT },
		{ "weight", required_argument, NULL, O_WEIGHT },
		{ "pid", no_argument, NULL, O_PID },
		{ "tid", no_argument, NULL, O_TID },
		{ "kernel", no_argument, NULL, O_KERNEL },
		{ "jit", no_argument, NULL, O_JIT },
		{ "all", no_argument, NULL, O_ALL },
		{ "addrs", no_argument, NULL, O_ADDRS },
		{ "inline", no_argument, NULL, O_INLINE },
		{ "only-pid", required_argument, NULL, O_ONLY_PID },
		{ "only-tid", required_argument, NULL, O_ONLY_TID },
		{ "comms", required_argument, NULL, O_COMMS },
		{ "max-stack", required_argument, NULL, O_MAX_STACK },
		{ "time", required_argument, NULL, O_TIME },
		{ "srcline", no_argument, NULL, O_SRCLINE },
		{ "from-text", no_argument, NULL, O_FROM_TEXT },
		{ "compat", no_argument, NULL, O_COMPAT },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "off-cpu", no_argument, NULL, O_OFF_CPU },
		{ "preempted", no_argument, NULL, O_PREEMPTED },
		{ "wall", no_argument, NULL, O_WALL },
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
	while ((c = getopt_long(argc, argv, "i:qh", opts, &option)) != -1) {
		if (symbol_cli_option(&syms, c, optarg)) {
			data_only = 1;
			continue;
		}
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case O_EVENT:
			o.event = optarg; /* --from-text */
			if (sample_filter_parse(&o.filter, SAMPLE_FILTER_EVENT, "event", optarg, &err)) {
				fprintf(stderr, "tephra fold: %s\n", err.msg);
				goto out;
			}
			break;
		case O_WEIGHT:
			if (!strcmp(optarg, "period"))
				o.weight = PERF_FOLD_WEIGHT_PERIOD;
			else if (!strcmp(optarg, "samples"))
				o.weight = PERF_FOLD_WEIGHT_SAMPLES, data_only = 1;
			else {
				fprintf(stderr, "tephra fold: --weight is 'period' or 'samples'\n");
				goto out;
			}
			break;
		case O_PID:
			if (o.root != FOLD_ROOT_TID)
				o.root = FOLD_ROOT_PID;
			break;
		case O_TID:
			o.root = FOLD_ROOT_TID;
			break;
		case O_KERNEL:
			o.name_flags |= FOLD_KERNEL;
			break;
		case O_JIT:
			o.name_flags |= FOLD_JIT;
			break;
		case O_ALL:
			o.name_flags |= FOLD_KERNEL | FOLD_JIT;
			break;
		case O_ADDRS:
			o.name_flags |= FOLD_ADDRS;
			break;
		case O_INLINE:
			o.name_flags |= FOLD_INLINED;
			data_only = 1;
			break;
		case O_SRCLINE:
			o.srcline = 1;
			break;
		case O_FROM_TEXT:
			from_text = 1;
			break;
		case O_COMPAT:
			o.compat = 1;
			break;
		case O_STRICT:
			o.strict = 1;
			break;
		case O_OFF_CPU:
			o.off_cpu = 1;
			data_only = 1;
			break;
		case O_PREEMPTED:
			o.off_cpu_preempted = 1;
			break;
		case O_WALL:
			o.wall = 1;
			data_only = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case O_ONLY_PID:
		case O_ONLY_TID:
		case O_COMMS:
		case O_MAX_STACK:
		case O_TIME:
			data_only = 1;
			if (sample_filter_parse(&o.filter, filter_kind(c), opts[option].name,
						optarg, &err)) {
				fprintf(stderr, "tephra fold: %s\n", err.msg);
				goto out;
			}
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		usage(stderr);
		goto out;
	}
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
	if (perf_fold_file(path, &o, t, &err)) {
		if (strcmp(path, "-") && profile_is_script_text(path))
			fprintf(stderr, "tephra fold: %s: `perf script` text, not a perf.data file: "
				"fold it with --from-text\n", path);
		else
			fprintf(stderr, "tephra fold: %s\n", err.msg);
		rc = 1;
	}
	/* what was folded before an error is still printed */
	if (fold_table_write(t, stdout) || fflush(stdout)) {
		fprintf(stderr, "tephra fold: writing output failed\n");
		rc = 1;
	}
	fold_table_free(t);
out:
	sample_filter_free(&o.filter);
	return rc;
}
