/* cmd_flamegraph.c - `tephra flamegraph`: perf.data or folded stacks to an SVG. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_files.h"
#include "commands.h"
#include "flame_cli.h"
#include "symbol_cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tephra flamegraph [options] [INPUT] [-o flame.svg]\n\n"
		"INPUT is a perf.data file or folded stacks (\"a;b;c COUNT\" lines, from any\n"
		"tool; two counts per line make a differential graph); '-' reads standard\n"
		"input; nothing reads ./perf.data when standard input is a terminal, else\n"
		"standard input.  An SVG is never written to a terminal: without -o it then\n"
		"goes to flame.svg.\n\n%s"
		"  -q, --quiet         perf.data: no stack-quality report on stderr\n%s",
		flame_cli_output_help, flame_cli_help);
	symbol_cli_usage(f, 22, 1);
}

int cmd_flamegraph(int argc, char **argv)
{
	static const struct option own[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		SYMBOL_CLI_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = flame_cli_merge_options(own);
	struct flame_cli c;
	int opt, rc, quiet = 0;
	struct symbol_options syms = { 0 };

	flame_cli_init(&c, "tephra flamegraph");
	while ((opt = getopt_long(argc, argv, "fhqo:", opts, NULL)) != -1) {
		if (opt == 'f') /* perf's -f: --force */
			opt = SYMBOL_O_FORCE;
		if (symbol_cli_option(&syms, opt, optarg))
			continue;
		if (opt == 'q') {
			quiet = 1;
			continue;
		}
		if (opt == 'h') {
			usage(stdout);
			free(opts);
			return 0;
		}
		if (opt == 'o')
			opt = FLAME_OPT_BASE; /* --output */
		if (opt == '?')
			usage(stderr);
		if (opt == '?' || flame_cli_option(&c, opt, optarg) != 0) {
			free(opts);
			return 2;
		}
	}
	free(opts);
	if (cli_check_inputs("tephra flamegraph", argc, argv, optind, 0, 1))
		return 2; /* (two profiles: tephra diff) */
	const char *input = optind < argc ? argv[optind] : flame_cli_default_input();
	struct flame_tree *t = flame_tree_new(c.tree_flags);
	struct profile_input_opts in = { 0, 0, !!(c.tree_flags & FLAME_TREE_TIME_ORDER),
					 c.name_flags, isatty(2) };
	struct profile_stats st;

	in.count_samples = c.count_samples;
	in.compat = c.compat;
	in.samples_col = !c.count_samples;
	in.quality = quiet ? NULL : stderr;
	in.quality_who = "tephra flamegraph";
	in.symbols = &syms;

	rc = flame_cli_load(&c, input, t, &in, &st);
	if (rc == 0) {
		flame_tree_finish(t);
		c.svg.diff = st.folded.two_columns;
		flame_cli_set_unit(&c, &st);
		if (flame_tree_node(t, 0)->weight[c.svg.diff && !c.svg.negate ? 1 : 0] <= 0) {
			fprintf(stderr, "tephra flamegraph: %s: no stack counts found\n",
				strcmp(input, "-") ? input : "<stdin>");
			rc = 1;
		} else {
			rc = flame_cli_write(&c, t);
		}
	}
	flame_tree_free(t);
	return rc;
}
