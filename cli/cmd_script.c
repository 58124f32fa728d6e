/* cmd_script.c - `tephra script`: print perf.data samples exactly as `perf script` does,
 * then, for recordings with call graphs, the stack-quality block on stderr (as `tephra fold`).
 * perf script 6.1 has no -q, so -q/--quiet silences the block as fold's does. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli_report.h"
#include "cli_files.h"
#include "commands.h"
#include "perfscript/script_render.h"
#include "session/sample_filter.h"
#include "symbol_cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tephra script [options] [FILE]\n"
		"Prints the samples of FILE (default ./perf.data; '-' reads a pipe-mode stream\n"
		"from standard input) in the text `perf script` prints.\n\n"
		"  -i, --input FILE     the perf.data file\n"
		"  -F, --fields LIST    comm,tid,pid,cpu,time,event,ip,sym,dso,symoff,period,\n"
		"                       srcline,trace (a tracepoint's fields)\n"
		"                       (+field / -field change the default set)\n"
		"      --pid LIST       only samples of these processes\n"
		"      --tid LIST       only samples of these threads\n"
		"      --comms LIST     only samples of threads with these comms (or --comm)\n"
		"      --max-stack N    at most N callchain frames (default 127)\n"
		"      --event NAME     only samples of this event (as the event column names it;\n"
		"                       an unknown NAME is an error listing the recording's events)\n"
		"      --time RANGES    only samples in these times, as perf script's --time:\n"
		"                       START,END in seconds (blank-separated), or A%%-B%%, A%%/N\n"
		"      --ns             time with nanoseconds\n"
		"      --guest          also the samples taken in a guest (perf kvm), which perf\n"
		"                       script hides\n"
		"      --no-inline      do not list the functions inlined at DWARF-unwound frames\n"
		"      --strict         damaged input (a cut stream or file, junk after the last\n"
		"                       record, a killed perf record's file) is an error, not a\n"
		"                       warning after the whole records\n"
		"  -q, --quiet          no stack-quality report on stderr\n");
	symbol_cli_usage(f, 23, 1);
}

int cmd_script(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "comms", required_argument, NULL, 'c' },
		{ "comm", required_argument, NULL, 'c' },
		{ "max-stack", required_argument, NULL, 'm' },
		{ "event", required_argument, NULL, 'e' },
		{ "time", required_argument, NULL, 'T' },
		{ "ns", no_argument, NULL, 'n' },
		{ "guest", no_argument, NULL, 'G' },
		{ "no-inline", no_argument, NULL, 'I' },
		{ "strict", no_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		SYMBOL_CLI_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct script_options o = { 0 };
	struct symbol_options syms = { 0 };
	struct tephra_error err = { { 0 } };
	const char *path = NULL;
	int c, option, rc = 2, quiet = 0;
	o.symbols = &syms;
	while ((c = getopt_long(argc, argv, "i:F:qfh", opts, &option)) != -1) {
		if (c == 'f') /* perf's -f: --force */
			c = SYMBOL_O_FORCE;
		if (symbol_cli_option(&syms, c, optarg))
			continue;
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'F':
			if (script_parse_fields(&o, optarg, &err)) {
				fprintf(stderr, "tephra script: %s\n", err.msg);
				goto out;
			}
			break;
		case 'p':
		case 't':
		case 'c':
		case 'm':
		case 'e':
		case 'T':
			if (sample_filter_parse(&o.filter, c == 'p' ? SAMPLE_FILTER_PIDS :
						c == 't' ? SAMPLE_FILTER_TIDS :
						c == 'c' ? SAMPLE_FILTER_COMMS :
						c == 'e' ? SAMPLE_FILTER_EVENT :
						c == 'T' ? SAMPLE_FILTER_TIME :
						SAMPLE_FILTER_MAX_STACK,
						opts[option].name, optarg, &err)) {
				fprintf(stderr, "tephra script: %s\n", err.msg);
				goto out;
			}
			break;
		case 'n':
			o.nanosecs = 1;
			break;
		case 'G':
			o.filter.guest = 1;
			break;
		case 'I':
			o.no_inline = 1;
			break;
		case 'S':
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
			usage(stderr);
			goto out;
		}
	}
	if (cli_check_inputs("tephra script", argc, argv, optind, 0, 1))
		goto out;
	if (optind < argc)
		path = argv[optind++];
	if (!path)
		path = "perf.data";
	o.report = cli_report(isatty(2));
	o.quality = quiet ? NULL : stderr;
	o.quality_who = "tephra script";
	rc = 0;
	if (script_render_file(path, &o, 1, &err)) {
		fprintf(stderr, "tephra script: %s\n", err.msg);
		rc = 1;
	}
out:
	sample_filter_free(&o.filter);
	return rc;
}
