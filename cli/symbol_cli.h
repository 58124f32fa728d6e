/* symbol_cli.h - the options that say where a recording's symbols are when it is read
 * away from the machine that made it (--symfs, --kallsyms, --buildid-dir), one table
 * for every command that names frames of a perf.data file (script, fold, flamegraph, heatmap,
 * export, report).  The policy (where each is looked for, in which order, and what is
 * refused) is src/symbol/'s: debug_paths.h, symbol_store.h; docs/symbols.md. */
#ifndef TEPHRA_CLI_SYMBOL_CLI_H
#define TEPHRA_CLI_SYMBOL_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "symbol/symbol_store.h"

/* getopt_long codes: each command puts SYMBOL_CLI_LONG_OPTIONS in its option table and
 * prints symbol_cli_usage() in its --help (tests/install/help.test.sh reads both). */
enum { SYMBOL_O_SYMFS = 500, SYMBOL_O_KALLSYMS, SYMBOL_O_BUILDID_DIR, SYMBOL_O_FORCE };
#define SYMBOL_CLI_LONG_OPTIONS                                                          \
	{ "symfs", required_argument, NULL, SYMBOL_O_SYMFS },                              \
	{ "kallsyms", required_argument, NULL, SYMBOL_O_KALLSYMS },                        \
	{ "buildid-dir", required_argument, NULL, SYMBOL_O_BUILDID_DIR },                  \
	{ "force", no_argument, NULL, SYMBOL_O_FORCE }

/* --force (perf's -f, which the commands whose -f is free take as well: pass
 * SYMBOL_O_FORCE for it) reads a perf.data and map files of another user.
 * Returns 1 when C is one of these options, having put ARG into O ("DIR,flat" is
 * cut to DIR in place, as ARG is getopt's optarg); 0 when C is another option.  The
 * places are checked when the recording is opened (symbol_options_check). */
int symbol_cli_option(struct symbol_options *o, int c, char *arg);

/* The help lines of these options, the descriptions starting at column COL;
 * SHORT_FORCE: the command takes -f for --force. */
void symbol_cli_usage(FILE *f, int col, int short_force);

#endif
