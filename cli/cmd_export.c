/* cmd_export.c - `tephra export`: a profile in the formats other tools read (pprof,
 * speedscope, callgrind), written by the export stage (src/export/). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_files.h"
#include "commands.h"
#include "export/export_write.h"
#include "export_source.h"
#include "symbol_cli.h"

#define WHO "tephra export"
#define OPT_GRANULARITY 1000 /* above the shared tables' option codes */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tephra export -f FORMAT -o OUT [options] [FILE]\n"
		"Writes the samples of FILE (perf.data, default ./perf.data, or the directory perf\n"
		"record --threads writes; or folded stacks; '-': either from standard input, the\n"
		"perf.data a pipe-mode stream) as FORMAT, keeping what FILE has: threads, objects,\n"
		"addresses, inline chains and source lines (folded text: names only).\n\n"
		"  -f, --format FORMAT    pprof (gzip-compressed profile.proto: go tool pprof,\n"
		"                         Pyroscope, Parca), callgrind (KCachegrind,\n"
		"                         callgrind_annotate) or speedscope (JSON): a profile\n"
		"                         per thread, samples in time order\n"
		"  -o, --output OUT       the file to write ('-': standard output)\n"
		"  --granularity G        pprof: a Location per object and address\n"
		"                         (addresses, the default) or per inline chain of\n"
		"                         functions (functions: smaller files, no addresses\n"
		"                         or line numbers)\n"
		EXPORT_SOURCE_HELP EXPORT_SOURCE_OFFCPU_HELP);
	symbol_cli_usage(f, 25, 0);
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "granularity", required_argument, NULL, OPT_GRANULARITY },
		{ "help", no_argument, NULL, 'h' },
		EXPORT_SOURCE_LONG_OPTIONS,
		SYMBOL_CLI_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct perf_fold_options o = { 0 };
	struct symbol_options syms = { 0 };
	const char *out_path = NULL, *format = NULL, *path = "perf.data", *granularity = NULL;
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
		case OPT_GRANULARITY:
			granularity = optarg;
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
	if (export_source_check_offcpu(&o, WHO))
		goto out;
	if (cli_check_inputs(WHO, argc, argv, optind, 0, 1))
		goto out;
	if (optind < argc)
		path = argv[optind++];
	if (!format || !out_path) {
		fprintf(stderr, WHO ": %s is needed\n", !format ? "-f FORMAT (" EXPORT_FORMAT_HELP ")" : "-o OUT ('-': standard output)");
		goto out;
	}
	int fmt = export_format_parse(format, 0, WHO);
	if (fmt < 0)
		goto out;
	struct export_write_options wo = { 0, 0, EXPORT_GRANULARITY_ADDRESSES };
	if (granularity) {
		int g = export_granularity_parse(granularity, WHO);
		if (g < 0)
			goto out;
		if (fmt != EXPORT_FORMAT_PPROF) {
			fprintf(stderr, "%s: --granularity is for -f pprof\n", WHO);
			goto out;
		}
		wo.granularity = (enum export_granularity)g;
	}
	/* speedscope keeps every sample's time */
	struct export_profile *p = export_profile_new(fmt == EXPORT_FORMAT_SPEEDSCOPE);
	rc = export_source_load(path, &o, p, &wo.time_nanos, WHO);
	if (!rc)
		rc = export_format_write_with(p, fmt, out_path, path, &wo, WHO);
	export_profile_free(p);
out:
	sample_filter_free(&o.filter);
	return rc;
}
