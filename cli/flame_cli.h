/* flame_cli.h - the options every graph-writing command shares (flamegraph, diff,
 * record): look, colours, output file, and writing the SVG, the one way every command
 * (grind and emu too) writes one. */
#ifndef TEPHRA_CLI_FLAME_CLI_H
#define TEPHRA_CLI_FLAME_CLI_H

#include <getopt.h>

#include "render/flame_svg.h"
#include "render/flame_tree.h"
#include "profile_source.h"

struct flame_cli {
	const char *who;        /* "tephra flamegraph": the head of every message */
	struct flame_svg_opts svg;
	const char *output;     /* NULL or "-" = standard output */
	const char *tty_output; /* the file written instead of a terminal (flame.svg) */
	const char *palfile;    /* --cp file */
	int cp;
	unsigned tree_flags;    /* FLAME_TREE_REVERSE, FLAME_TREE_TIME_ORDER */
	unsigned name_flags;    /* perf.data annotations */
	int count_samples;      /* perf.data: --weight samples */
	int compat;             /* perf.data: --compat, stackcollapse-perf.pl's names */
	int countname_set;      /* --countname given: it wins over the recording's unit */
	int palette_set;        /* --colors given: it wins over --off-cpu's blue */
	int off_cpu, wall, preempted; /* perf.data: --off-cpu, --wall, --preempted */
	const char *time;       /* perf.data: --time (session/sample_filter.h) */
	char measured[128];     /* perf.data: the event, for the title (svg.measured) */
};

/* Option codes of the shared options start here; commands use smaller ones. */
#define FLAME_OPT_BASE 1000

/* The shared long options (terminated by a zero entry), to append to a command's. */
extern const struct option flame_cli_options[];
/* Help text lines for the shared options but -o, --output, whose default differs
 * (record writes flame.svg): flame_cli_output_help is the line of the others. */
extern const char flame_cli_help[];
extern const char flame_cli_output_help[];

void flame_cli_init(struct flame_cli *c, const char *who);
/* Handles one shared option; returns 0, or -1 after printing why ARG is bad. */
int flame_cli_option(struct flame_cli *c, int code, const char *arg);

/* Copies the command's long options followed by the shared ones into a new array. */
struct option *flame_cli_merge_options(const struct option *own);

/* Writes T as an SVG to c->output (or stdout); prints errors.  Returns 0 or 1.
 * An SVG is never written to a terminal: with no -o and a terminal on standard output
 * it goes to ./flame.svg (c->tty_output), and a line on stderr says so; an explicit
 * "-o -" is refused there. */
int flame_cli_write(struct flame_cli *c, const struct flame_tree *t);

/* After a load: what a count of the graph is (svg.time_ns, countname, samples_col,
 * measured), from the perf.data event folded; folded text keeps --countname. */
void flame_cli_set_unit(struct flame_cli *c, const struct profile_stats *st);

/* Loads PATH into T (printing errors and warnings); returns 0 or 1. */
int flame_cli_load(const struct flame_cli *c, const char *path, struct flame_tree *t,
		   const struct profile_input_opts *o, struct profile_stats *st);

/* The input of a command given none: ./perf.data when standard input is a terminal
 * (as fold, script and stat read it), else standard input ("-"). */
const char *flame_cli_default_input(void);

/* The graph of the profile in PATH (folded text, or perf.data), read with the default
 * input options, written as C says; prints errors.  Returns 0 or 1. */
int flame_cli_graph_file(struct flame_cli *c, const char *path);

#endif
