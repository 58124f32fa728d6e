/* flame_cli.c - shared options and output of the graph-writing commands. */
#include "flame_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "cli_files.h"
#include "cli_number.h"
#include "fold/fold_naming.h"

enum {
	O_OUTPUT = FLAME_OPT_BASE, O_TITLE, O_SUBTITLE, O_WIDTH, O_HEIGHT, O_MINWIDTH,
	O_FONTSIZE, O_FONTTYPE, O_COUNTNAME, O_NAMETYPE, O_NOTES, O_COLORS, O_HASH, O_CP,
	O_PALFILE, O_REVERSE, O_INVERTED, O_FLAMECHART, O_NEGATE, O_NO_ANNOTATE, O_WEIGHT, O_COMPAT,
	O_OFF_CPU, O_WALL, O_PREEMPTED, O_TIME,
};

const struct option flame_cli_options[] = {
	{ "output", required_argument, NULL, O_OUTPUT },
	{ "title", required_argument, NULL, O_TITLE },
	{ "subtitle", required_argument, NULL, O_SUBTITLE },
	{ "width", required_argument, NULL, O_WIDTH },
	{ "height", required_argument, NULL, O_HEIGHT },
	{ "minwidth", required_argument, NULL, O_MINWIDTH },
	{ "fontsize", required_argument, NULL, O_FONTSIZE },
	{ "fonttype", required_argument, NULL, O_FONTTYPE },
	{ "countname", required_argument, NULL, O_COUNTNAME },
	{ "nametype", required_argument, NULL, O_NAMETYPE },
	{ "notes", required_argument, NULL, O_NOTES },
	{ "colors", required_argument, NULL, O_COLORS },
	{ "colours", required_argument, NULL, O_COLORS },
	{ "hash", no_argument, NULL, O_HASH },
	{ "cp", no_argument, NULL, O_CP },
	{ "palfile", required_argument, NULL, O_PALFILE },
	{ "reverse", no_argument, NULL, O_REVERSE },
	{ "inverted", no_argument, NULL, O_INVERTED },
	{ "flamechart", no_argument, NULL, O_FLAMECHART },
	{ "negate", no_argument, NULL, O_NEGATE },
	{ "no-annotate", no_argument, NULL, O_NO_ANNOTATE },
	{ "weight", required_argument, NULL, O_WEIGHT },
	{ "compat", no_argument, NULL, O_COMPAT },
	{ "off-cpu", no_argument, NULL, O_OFF_CPU },
	{ "wall", no_argument, NULL, O_WALL },
	{ "preempted", no_argument, NULL, O_PREEMPTED },
	{ "time", required_argument, NULL, O_TIME },
	{ NULL, 0, NULL, 0 },
};

const char flame_cli_output_help[] =
	"  -o, --output FILE   write the SVG to FILE (default: standard output, or\n"
	"                      flame.svg when that is a terminal)\n";

const char flame_cli_help[] =
	"  --title TEXT        title (default: Flame Graph / Icicle Graph / ...)\n"
	"  --subtitle TEXT     second title line\n"
	"  --width PX          image width (1200)\n"
	"  --height PX         height of one frame (16)\n"
	"  --minwidth PX|P%    leave out frames narrower than this (0.1 px)\n"
	"  --fontsize PX       font size (12); --fonttype FONT (Verdana)\n"
	"  --countname TEXT    what a count is (default: perf.data says it: time for\n"
	"                      cpu-clock/task-clock, else the event; samples); --nametype\n"
	"                      TEXT (Function:)\n"
	"  --notes TEXT        notes kept in the SVG's <desc>\n"
	"  --colors PALETTE    hot (default), mem, io, red, green, blue, aqua, yellow,\n"
	"                      purple, orange, java, js, perl, python, rust, wakeup, chain\n"
	"                      (--colours: the same)\n"
	"  --hash              similar names get similar colours\n"
	"  --cp                consistent palette: reuse and extend palette.map\n"
	"  --palfile FILE      the palette file --cp uses (palette.map)\n"
	"  --reverse           stack-reversed graph (leaf functions at the root)\n"
	"  --inverted          icicle graph (root at the top)\n"
	"  --flamechart        keep input order (time order for perf.data): a flame chart\n"
	"                      (not for tephra diff, which merges stacks)\n"
	"  --negate            differential graphs (tephra diff, two-column input): draw\n"
	"                      widths of the first profile\n"
	"  --no-annotate       perf.data: no _[k]/_[j] kernel/JIT annotations (and hues)\n"
	"  --weight W          perf.data: 'period' (default: sums sample periods, as\n"
	"                      perf script | stackcollapse-perf.pl does) or 'samples'\n"
	"  --compat            perf.data: name frames as perf script | stackcollapse-perf.pl\n"
	"                      (roots read from the header, names cut at '(', ...)\n"
	"  --off-cpu           perf.data: where threads blocked, ns (sched:sched_switch with\n"
	"                      context switches: tephra record --off-cpu; docs/offcpu.md),\n"
	"                      in blue\n"
	"  --wall              perf.data: on-CPU samples and off-CPU time in one graph, the\n"
	"                      waits under a blue leaf '[off-cpu: STATE]'\n"
	"  --preempted         with --off-cpu or --wall: time preempted (R) counts too\n"
	"  --time RANGES       perf.data: only samples in these times (perf script --time):\n"
	"                      START,END in seconds (blank-separated), or A%-B%, A%/N\n"
	"                      (--off-cpu, --wall: the waits' parts in them)\n";

void flame_cli_init(struct flame_cli *c, const char *who)
{
	memset(c, 0, sizeof(*c));
	c->who = who;
	c->tty_output = "flame.svg";
	flame_svg_opts_init(&c->svg);
	c->palfile = "palette.map";
	c->name_flags = FOLD_KERNEL | FOLD_JIT;
}

static int number(const struct flame_cli *c, const char *opt, const char *arg, double lo,
		  double hi, double *out)
{
	return cli_number_double(c->who, opt, arg, lo, hi, out);
}

int flame_cli_option(struct flame_cli *c, int code, const char *arg)
{
	struct flame_svg_opts *s = &c->svg;

	switch (code) {
	case O_OUTPUT: c->output = arg; return 0;
	case O_TITLE: s->title = arg; return 0;
	case O_SUBTITLE: s->subtitle = arg; return 0;
	case O_WIDTH: return number(c, "--width", arg, 100, 1e6, &s->width);
	case O_HEIGHT: return number(c, "--height", arg, 2, 1000, &s->frame_height);
	case O_FONTSIZE: return number(c, "--fontsize", arg, 1, 500, &s->fontsize);
	case O_MINWIDTH: {
		size_t n = strlen(arg);
		char buf[64];
		if (n && n < sizeof(buf) && arg[n - 1] == '%') {
			memcpy(buf, arg, n - 1);
			buf[n - 1] = '\0';
			s->minwidth_pct = 1;
			return number(c, "--minwidth", buf, 0, 100, &s->minwidth);
		}
		s->minwidth_pct = 0;
		return number(c, "--minwidth", arg, 0, 1e6, &s->minwidth);
	}
	case O_FONTTYPE: s->fonttype = arg; return 0;
	case O_COUNTNAME: s->countname = arg; c->countname_set = 1; return 0;
	case O_NAMETYPE: s->nametype = arg; return 0;
	case O_NOTES: s->notes = arg; return 0;
	case O_COLORS:
		c->palette_set = 1;
		if (palette_parse(arg, &s->palette) != 0) {
			fprintf(stderr, "%s: --colors: unknown palette '%s' (known: %s)\n", c->who,
				arg, palette_names());
			return -1;
		}
		return 0;
	case O_HASH: s->hash = 1; return 0;
	case O_CP: c->cp = 1; return 0;
	case O_PALFILE: c->palfile = arg; c->cp = 1; return 0;
	case O_REVERSE: c->tree_flags |= FLAME_TREE_REVERSE; return 0;
	case O_INVERTED: s->inverted = 1; return 0;
	case O_FLAMECHART: c->tree_flags |= FLAME_TREE_TIME_ORDER; s->flamechart = 1; return 0;
	case O_NEGATE: s->negate = 1; return 0;
	case O_NO_ANNOTATE: c->name_flags = 0; return 0;
	case O_COMPAT: c->compat = 1; return 0;
	case O_OFF_CPU: c->off_cpu = 1; return 0;
	case O_WALL: c->wall = 1; return 0;
	case O_PREEMPTED: c->preempted = 1; return 0;
	case O_TIME: {
		struct sample_filter f = { 0 };
		struct tephra_error err = { "" };
		int rc = sample_filter_parse(&f, SAMPLE_FILTER_TIME, "time", arg, &err);
		sample_filter_free(&f);
		if (rc)
			fprintf(stderr, "%s: %s\n", c->who, err.msg);
		c->time = arg;
		return rc;
	}
	case O_WEIGHT:
		if (!strcmp(arg, "samples") || !strcmp(arg, "period")) {
			c->count_samples = !strcmp(arg, "samples");
			return 0;
		}
		fprintf(stderr, "%s: --weight: '%s' is neither 'samples' nor 'period'\n", c->who, arg);
		return -1;
	}
	fprintf(stderr, "%s: unknown option\n", c->who);
	return -1;
}

struct option *flame_cli_merge_options(const struct option *own)
{
	size_t a = 0, b = 0;

	while (own[a].name)
		a++;
	while (flame_cli_options[b].name)
		b++;
	struct option *all = xcalloc(a + b + 1, sizeof(*all));
	memcpy(all, own, a * sizeof(*all));
	memcpy(all + a, flame_cli_options, (b + 1) * sizeof(*all));
	return all;
}

void flame_cli_set_unit(struct flame_cli *c, const struct profile_stats *st)
{
	struct flame_svg_opts *s = &c->svg;

	if (st->is_perf_data && c->off_cpu && !c->palette_set)
		s->palette = PAL_BLUE; /* off-CPU graphs are blue, by tradition */
	if (!st->is_perf_data || !st->perf.event[0])
		return;
	/* "cpu-clock:ppp" → "cpu-clock": the modifiers say how, not what */
	snprintf(c->measured, sizeof(c->measured), "%.*s", (int)strcspn(st->perf.event, ":"),
		 st->perf.event);
	s->samples_col = st->samples_col && !s->diff && !c->count_samples;
	if (c->countname_set)
		return;
	s->measured = c->measured;
	if (c->count_samples)
		s->countname = "samples";
	else if (st->perf.time_ns)
		s->time_ns = 1;
	else
		s->countname = c->measured;
}

int flame_cli_load(const struct flame_cli *c, const char *path, struct flame_tree *t,
		   const struct profile_input_opts *o, struct profile_stats *st)
{
	struct tephra_error err = { "" };
	struct profile_input_opts in = *o;

	in.off_cpu = c->off_cpu;
	in.wall = c->wall;
	in.preempted = c->preempted;
	in.time = c->time;
	if (profile_load(path, t, &in, st, &err) != 0) {
		fprintf(stderr, "%s: %s\n", c->who, err.msg);
		return 1;
	}
	profile_warn_skipped(c->who, strcmp(path, "-") ? path : "<stdin>", st);
	return 0;
}

const char *flame_cli_default_input(void)
{
	return isatty(0) ? "perf.data" : "-";
}

int flame_cli_write(struct flame_cli *c, const struct flame_tree *t)
{
	struct tephra_error err = { "" };
	int to_stdout = !c->output || !strcmp(c->output, "-");
	if (to_stdout && isatty(1)) {
		/* an SVG on a terminal is a screenful of noise: to the usual file instead,
		 * unless standard output was asked for by name */
		if (c->output) {
			fprintf(stderr, "%s: standard output is a terminal, not writing an SVG "
				"there: give -o FILE\n", c->who);
			return 1;
		}
		c->output = c->tty_output;
		to_stdout = 0;
		fprintf(stderr, "%s: standard output is a terminal: writing %s "
			"(-o FILE names the SVG)\n", c->who, c->output);
	}
	const char *name = to_stdout ? "<stdout>" : c->output;
	struct out_file of;
	FILE *out = cli_out_open(&of, c->who, to_stdout ? "-" : c->output);
	int rc = 0;

	if (!out)
		return 1;
	if (c->cp) {
		c->svg.cp = palette_map_load(c->palfile, &err);
		if (!c->svg.cp) {
			fprintf(stderr, "%s: %s\n", c->who, err.msg);
			rc = 1;
		}
	}
	int wrote = rc == 0 && flame_svg_write(out, name, t, &c->svg, &err) == 0;
	if (rc == 0 && !wrote && !ferror(out))
		fprintf(stderr, "%s: %s\n", c->who, err.msg);
	/* the SVG first: a failed palette save leaves the graph where it was; a write
	 * error is said by cli_out_close, as every command's */
	if (rc)
		cli_out_abort(&of);
	else if (cli_out_close(&of, c->who, wrote) != 0)
		rc = 1;
	if (rc == 0 && c->svg.cp && palette_map_save(c->svg.cp, c->palfile, &err) != 0) {
		fprintf(stderr, "%s: %s\n", c->who, err.msg);
		rc = 1;
	}
	palette_map_free(c->svg.cp);
	c->svg.cp = NULL;
	return rc;
}

int flame_cli_graph_file(struct flame_cli *c, const char *path)
{
	struct flame_tree *t = flame_tree_new(c->tree_flags);
	struct profile_input_opts in = { 0 };
	struct profile_stats st;
	int rc = flame_cli_load(c, path, t, &in, &st);

	if (rc == 0) {
		flame_tree_finish(t);
		rc = flame_cli_write(c, t);
	}
	flame_tree_free(t);
	return rc;
}
