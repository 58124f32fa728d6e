/* cmd_export.c - `tephra export`: a profile in the formats other tools read (pprof,
 * speedscope, callgrind), written by the export stage (src/export/). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "export/export_write.h"
#include "export_source.h"
#include "symbol_cli.h"

#define WHO "tephra export"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tephra export -f FORMAT -o OUT [options] [FILE]\n"
		"Writes the samples of FILE (perf.data, default ./perf.data; or folded stacks,\n"
		"'-' for standard input) as FORMAT, keeping what FILE has: threads, objects,\n"
		"addresses, inline chains and source lines (folded text: names only).\n\n"
		"  -f, --format FORMAT    pprof (gzip-compressed profile.proto: go tool pprof,\n"
		"                         Pyroscope, Parca), callgrind (KCachegrind,\n"
		"                         callgrind_annotate), speedscope (JSON: a profile per\n"
		"                         thread, samples in time order)\n"
		"  -o, --output OUT       the file to write ('-': standard output)\n"
		EXPORT_SOURCE_HELP);
	symbol_cli_usage(f, 25);
}

enum export_format { FORMAT_PPROF, FORMAT_CALLGRIND, FORMAT_SPEEDSCOPE };

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		EXPORT_SOURCE_LONG_OPTIONS,
		SYMBOL_CLI_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct perf_fold_options o = { 0 };
	struct symbol_options syms = { 0 };
	const char *out_path = NULL, *format = NULL, *path = "perf.data";
	int c, option, rc = 2;
	o.symbols = &syms;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, &option)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		case '?':
			usage(stderr);
			goto out;
		default:
			if (symbol_cli_option(&syms, c, optarg))
				break;
			if (export_source_option(&o, c, opts[option].name, optarg, WHO))
				goto out;
			break;
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc || !format || !out_path) {
		usage(stderr);
		goto out;
	}
	enum export_format fmt;
	if (!strcmp(format, "pprof")) {
		fmt = FORMAT_PPROF;
	} else if (!strcmp(format, "callgrind")) {
		fmt = FORMAT_CALLGRIND;
	} else if (!strcmp(format, "speedscope")) {
		fmt = FORMAT_SPEEDSCOPE;
	} else {
		fprintf(stderr, WHO ": unknown format '%s' (pprof, callgrind, speedscope)\n", format);
		goto out;
	}
	/* speedscope keeps every sample's time */
	struct export_profile *p = export_profile_new(fmt == FORMAT_SPEEDSCOPE);
	struct export_write_options wo = { 0, 0 };
	rc = export_source_load(path, &o, p, &wo.time_nanos, WHO);
	if (!rc) {
		FILE *out = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
		struct tephra_error err = { { 0 } };
		if (!out) {
			fprintf(stderr, WHO ": %s: cannot create: %s\n", out_path, strerror(errno));
			rc = 1;
		} else {
			int wrc = fmt == FORMAT_PPROF	  ? export_write_pprof(p, &wo, out, &err)
				  : fmt == FORMAT_CALLGRIND ? export_write_callgrind(p, out, &err)
							    : export_write_speedscope(p, path, out, &err);
			if (wrc) {
				fprintf(stderr, WHO ": %s: %s\n", out_path, err.msg);
				rc = 1;
			}
			if ((out == stdout ? fflush(out) : fclose(out)) != 0 && !rc) {
				fprintf(stderr, WHO ": %s: write error: %s\n", out_path, strerror(errno));
				rc = 1;
			}
		}
	}
	export_profile_free(p);
out:
	sample_filter_free(&o.filter);
	return rc;
}
