/* cmd_diff.c - `tephra diff`: a differential flame graph of two profiles. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_files.h"
#include "commands.h"
#include "flame_cli.h"
#include "render/flame_diff.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tephra diff [options] BEFORE AFTER [-o diff.svg]\n\n"
		"BEFORE and AFTER are perf.data files or folded stacks.  Frames are as wide as\n"
		"in AFTER; red where a function's own samples grew, blue where they shrank.\n\n"
		"  -n, --normalize     scale BEFORE to AFTER's total first (or --normalise)\n"
		"  -s, --strip-hex     rewrite hex numbers (addresses) as 0x...\n"
		"  --folded            print \"stack BEFORE AFTER\" lines instead of an SVG\n"
		"  -o, --output FILE   write the SVG to FILE (default: standard output, or\n"
		"                      diff.svg when that is a terminal)\n%s", flame_cli_help);
}

int cmd_diff(int argc, char **argv)
{
	enum { O_FOLDED = 1 };
	static const struct option own[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "normalize", no_argument, NULL, 'n' },
		{ "normalise", no_argument, NULL, 'n' },
		{ "strip-hex", no_argument, NULL, 's' },
		{ "folded", no_argument, NULL, O_FOLDED },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = flame_cli_merge_options(own);
	struct flame_cli c;
	int opt, rc = 0, normalize = 0, folded = 0;
	unsigned folded_flags = FOLDED_ONE_COLUMN;

	flame_cli_init(&c, "tephra diff");
	c.tty_output = "diff.svg";
	while ((opt = getopt_long(argc, argv, "hnso:", opts, NULL)) != -1) {
		switch (opt) {
		case 'h': usage(stdout); free(opts); return 0;
		case 'n': normalize = 1; continue;
		case 's': folded_flags |= FOLDED_STRIP_HEX; continue;
		case O_FOLDED: folded = 1; continue;
		case 'o': opt = FLAME_OPT_BASE; break;
		}
		if (opt == '?')
			usage(stderr);
		if (opt == '?' || flame_cli_option(&c, opt, optarg) != 0) {
			free(opts);
			return 2;
		}
	}
	free(opts);
	if (cli_check_inputs("tephra diff", argc, argv, optind, 2, 2))
		return 2;
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-")) {
		fprintf(stderr, "tephra diff: only one of the inputs can be standard input\n");
		return 2;
	}
	struct flame_tree *t = flame_tree_new((c.tree_flags & ~FLAME_TREE_TIME_ORDER) |
					      FLAME_TREE_STACK_COUNTS);
	struct profile_stats st;
	for (int i = 0; i < 2 && rc == 0; i++) {
		struct profile_input_opts in = { folded_flags, i, 0, c.name_flags, isatty(2),
						 c.count_samples, c.compat };
		rc = flame_cli_load(&c, argv[optind + i], t, &in, &st);
		/* A side with nothing in it (or nothing readable) is a mistake, not a diff. */
		if (rc == 0 && flame_tree_node(t, 0)->weight[i] <= 0) {
			fprintf(stderr, "tephra diff: %s: no stack counts found\n",
				strcmp(argv[optind + i], "-") ? argv[optind + i] : "<stdin>");
			rc = 1;
		}
	}
	if (rc == 0) {
		flame_tree_finish(t);
		if (folded) {
			struct out_file of;
			FILE *out = cli_out_open(&of, "tephra diff", c.output ? c.output : "-");
			if (!out || cli_out_close(&of, "tephra diff",
						  flame_diff_write_folded(t, out, normalize, 2) == 0) != 0)
				rc = 1;
		} else {
			if (normalize)
				flame_diff_normalize(t);
			c.svg.diff = 1;
			flame_cli_set_unit(&c, &st); /* the AFTER profile's unit */
			rc = flame_cli_write(&c, t);
		}
	}
	flame_tree_free(t);
	return rc;
}
