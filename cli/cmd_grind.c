/* cmd_grind.c - `tephra grind`: run a program under Valgrind with our tool
 * (tephragrind, built from grind/) and write folded stacks plus a flame graph.
 *
 * The tool is not installed into Valgrind's own directory: the launcher points
 * VALGRIND_LIB at a directory holding our tool beside links to the stock preload
 * objects (found beside this binary, cli/companion.h, or via TEPHRA_GRIND_LIB) and
 * runs the system's /usr/bin/valgrind.  A tool only works with the core it was linked
 * with, so the installed Valgrind's version is checked against the one built against. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "export/export_profile.h"
#include "fold/fold_table.h"

#include "child.h"
#include "commands.h"
#include "flame_cli.h"
#include "cli_files.h"
#include "companion.h"
#include "export_source.h"
#include "grind_procs.h"

#define TOOL_NAME "tephragrind"

struct grind_args {
	const char *folded;      /* -o */
	const char *svg;         /* --svg, NULL with --no-svg */
	const char *valgrind;    /* --valgrind */
	char **tool_opts;        /* options handed to the tool / valgrind */
	size_t ntool_opts;
	int quiet;
	int no_children;         /* --no-children: exec'd programs are not followed */
	int with_pid;            /* --pid: roots "comm-PID" instead of "comm" */
	int format;              /* -f: enum export_format */
	char *default_output;    /* -o's default for a format other than folded */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: tephra grind [options] [--] PROGRAM [ARGS...]\n"
"Runs PROGRAM under Valgrind, counting every guest instruction against its full call\n"
"path; writes folded stacks and a flame graph.\n\n"
"  -o, --output=FILE       folded stacks [grind.folded]; %%p in FILE: one file per\n"
"                          process, %%p replaced by its pid; '-': standard output\n"
"  -f, --format=FORMAT     write -o as folded (the default),\n"
"                          " EXPORT_FORMAT_HELP "\n"
"                          [grind.pb.gz, grind.callgrind, grind.speedscope.json]\n"
"      --svg=FILE          flame graph [grind.svg]\n"
"      --no-svg            write only the folded stacks\n"
"      --skip-obj=PATTERN  functions of objects matching PATTERN (glob on path or base\n"
"                          name) are not frames: their instructions go to their\n"
"                          nearest caller (repeatable)\n"
"      --start=on|off      count from the start, or from a start client request\n"
"                          (CALLGRIND_START_INSTRUMENTATION or TEPHRA_GRIND_START) [on]\n"
"      --collect-atstart=yes|no  charge counts from the start [yes]\n"
"      --tail-calls=replace|nest  a tail call replaces its caller's frame, or nests\n"
"                          under it as callgrind shows it [replace]\n"
"      --keep-cold         keep foo.cold as its own frame\n"
"      --show-below-main   keep _start, __libc_start_main, start_thread... frames\n"
"      --obj-prefix        name frames \"object:function\"\n"
"      --show-plt          keep PLT stubs and the lazy resolver as frames\n"
"      --inline            show inlined functions as frames (name_[i]), from the\n"
"                          program's DWARF inline info (slower)\n"
"      --no-children       do not follow the programs PROGRAM execs (a warning\n"
"                          names them); a forked process writes FILE.PID; no\n"
"                          root frames\n"
"      --pid               root frames \"comm-PID\" (default: \"comm\"; every stack\n"
"                          starts with its process's root frame)\n"
"      --valgrind-opt=OPT  pass OPT to valgrind (repeatable)\n"
"      --valgrind=PATH     the valgrind launcher [valgrind]\n"
"  -q, --quiet             no summary on stderr\n"
"Environment: TEPHRA_GRIND_LIB overrides the directory holding the tool.\n");
}

static void add_tool_opt(struct grind_args *a, const char *fmt, const char *val)
{
	char *s;
	if (asprintf(&s, fmt, val) < 0) {
		perror("tephra grind");
		exit(1);
	}
	a->tool_opts = realloc(a->tool_opts, (a->ntool_opts + 1) * sizeof(*a->tool_opts));
	if (!a->tool_opts) {
		perror("tephra grind");
		exit(1);
	}
	a->tool_opts[a->ntool_opts++] = s;
}

/* OUT = A "/" B; -1 when it does not fit in CAP bytes. */
static int path_join(char *out, size_t cap, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la + 1 + lb + 1 > cap)
		return -1;
	memcpy(out, a, la);
	out[la] = '/';
	memcpy(out + la + 1, b, lb + 1);
	return 0;
}

static int is_dir_with_tool(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	return path_join(path, sizeof(path), dir, "VERSION") == 0 && stat(path, &st) == 0;
}

/* The tool directory: $TEPHRA_GRIND_LIB, else the installed or build-tree one beside
 * the tephra binary (cli/companion.h). */
static int find_lib_dir(char *out, size_t cap, struct tephra_error *err)
{
	if (companion_path(COMPANION_GRIND_LIB, out, cap, err) != 0)
		return -1;
	if (!is_dir_with_tool(out)) {
		tephra_error_set(err, "%s=%s holds no tephragrind build (no VERSION file)",
				 companion_env(COMPANION_GRIND_LIB), out);
		return -1;
	}
	return 0;
}

static int read_first_line(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)cap, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\r\n")] = 0;
	return 0;
}

/* The first line `VALGRIND --version` prints, into HAVE (empty when it cannot run).
 * The launcher prints the version of the tool it starts (memcheck) from $VALGRIND_LIB
 * when that is set: the child runs without it, so this is the installed Valgrind's
 * version whatever our caller's environment holds. */
static void installed_version(const char *valgrind, char *have, size_t cap)
{
	char *argv[] = { (char *)valgrind, "--version", NULL };
	static const struct child_env env[] = { { "VALGRIND_LIB", NULL }, { NULL, NULL } };
	int out = -1;
	struct child_cmd cmd = { .argv = argv, .env = env, .stderr_null = 1, .stdout_pipe = &out,
				 .who = "tephra grind" };

	have[0] = 0;
	pid_t pid = child_start(&cmd);
	if (pid < 0)
		return;
	FILE *p = fdopen(out, "r");
	if (p) {
		if (!fgets(have, (int)cap, p))
			have[0] = 0;
		fclose(p);
	} else {
		close(out);
	}
	if (child_wait(pid, "tephra grind", NULL) < 0)
		have[0] = 0;
	have[strcspn(have, "\r\n")] = 0;
}

/* The tool links the core of the Valgrind it was built against; another version's
 * launcher would load it with an incompatible core layout. */
static int check_version(const char *libdir, const char *valgrind, struct tephra_error *err)
{
	char path[PATH_MAX], built[128], have[128];
	if (path_join(path, sizeof(path), libdir, "VERSION") != 0 ||
	    read_first_line(path, built, sizeof(built)) != 0) {
		tephra_error_set(err, "%s: cannot read the Valgrind version the tool was built "
				 "against", path);
		return -1;
	}
	installed_version(valgrind, have, sizeof(have));
	if (!have[0]) {
		tephra_error_set(err, "cannot run '%s --version': is Valgrind installed?", valgrind);
		return -1;
	}
	if (strcmp(have, built) != 0) {
		tephra_error_set(err, "the installed Valgrind is %s but the tool in %s was built "
				 "against %s; rebuild tephra (make) against the installed Valgrind",
				 have, libdir, built);
		return -1;
	}
	return 0;
}

/* Runs the program under Valgrind; DIR is where the tool writes a file per process, or
 * with --no-children only the notes of programs exec'd.  *VG_PID: the process that ran
 * PROGRAM (the launcher execs the tool in place). */
static int run_valgrind(const struct grind_args *a, const char *libdir, const char *tool_out,
			const char *shown_dir, const char *dir, int argc, char **argv, pid_t *vg_pid)
{
	size_t n = 0, cap = a->ntool_opts + (size_t)argc + 12;
	char **av = calloc(cap, sizeof(*av));
	char *out_opt, *tool_opt, *dir_opt, *shown_opt = NULL;
	if (!av || asprintf(&out_opt, "--out=%s", tool_out) < 0 ||
	    (shown_dir && asprintf(&shown_opt, "--shown-dir=%s", shown_dir) < 0) ||
	    asprintf(&tool_opt, "--tool=%s", TOOL_NAME) < 0 ||
	    asprintf(&dir_opt, "--%s=%s", a->no_children ? "exec-notes" : "proc-dir", dir) < 0) {
		perror("tephra grind");
		return -1;
	}
	av[n++] = (char *)a->valgrind;
	av[n++] = tool_opt;
	av[n++] = "-q";
	av[n++] = out_opt;
	for (size_t i = 0; i < a->ntool_opts; i++)
		av[n++] = a->tool_opts[i];
	av[n++] = dir_opt;
	if (shown_opt)
		av[n++] = shown_opt;
	if (!a->no_children) {
		/* Every process's tool writes its own file; the summary is ours. */
		av[n++] = "--trace-children=yes";
		av[n++] = "--summary=no";
	}
	av[n++] = "--";
	for (int i = 0; i < argc; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	const struct child_env env[] = { { "VALGRIND_LIB", libdir }, { NULL, NULL } };
	struct child_cmd cmd = { .argv = av, .env = env, .who = "tephra grind" };
	int rc = -1;
	*vg_pid = child_start(&cmd);
	if (*vg_pid >= 0)
		rc = child_wait(*vg_pid, "tephra grind", NULL);
	free(av);
	free(out_opt);
	free(tool_opt);
	free(dir_opt);
	free(shown_opt);
	return rc;
}

static int render_svg(const char *folded, const char *svg, const char *title)
{
	struct flame_cli c;
	flame_cli_init(&c, "tephra grind");
	c.output = svg;
	c.svg.title = title;
	c.svg.countname = "instructions";
	return flame_cli_graph_file(&c, folded);
}

enum { OPT_SVG = 1, OPT_NO_SVG, OPT_SKIP, OPT_START, OPT_COLLECT, OPT_TAIL, OPT_KEEP_COLD,
       OPT_BELOW_MAIN, OPT_OBJ_PREFIX, OPT_SHOW_PLT, OPT_VG_OPT, OPT_VALGRIND, OPT_INLINE,
       OPT_NO_CHILDREN, OPT_PID };

/* Parses the options into A; returns -1 to go on, or the exit status. */
static int parse_args(struct grind_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "no-svg", no_argument, NULL, OPT_NO_SVG },
		{ "skip-obj", required_argument, NULL, OPT_SKIP },
		{ "start", required_argument, NULL, OPT_START },
		{ "collect-atstart", required_argument, NULL, OPT_COLLECT },
		{ "tail-calls", required_argument, NULL, OPT_TAIL },
		{ "keep-cold", no_argument, NULL, OPT_KEEP_COLD },
		{ "show-below-main", no_argument, NULL, OPT_BELOW_MAIN },
		{ "obj-prefix", no_argument, NULL, OPT_OBJ_PREFIX },
		{ "show-plt", no_argument, NULL, OPT_SHOW_PLT },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "valgrind-opt", required_argument, NULL, OPT_VG_OPT },
		{ "valgrind", required_argument, NULL, OPT_VALGRIND },
		{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
		{ "pid", no_argument, NULL, OPT_PID },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const struct { int code; const char *name, *a, *b; } choices[] = {
		{ OPT_START, "start", "on", "off" },
		{ OPT_COLLECT, "collect-atstart", "yes", "no" },
		{ OPT_TAIL, "tail-calls", "replace", "nest" },
	};
	int c;
	optind = 1;
	/* '+': stop at the program's name, its options are its own. */
	const char *output = NULL;
	while ((c = getopt_long(argc, argv, "+o:f:qh", longopts, NULL)) != -1) {
		for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
			if (c == choices[i].code && strcmp(optarg, choices[i].a) &&
			    strcmp(optarg, choices[i].b)) {
				fprintf(stderr, "tephra grind: --%s takes %s or %s, not '%s'\n",
					choices[i].name, choices[i].a, choices[i].b, optarg);
				return 2;
			}
		}
		if ((c == 'o' || c == OPT_SVG) && !*optarg) {
			fprintf(stderr, "tephra grind: %s: an empty file name\n",
				c == 'o' ? "-o" : "--svg");
			return 2;
		}
		/* "--" would end Valgrind's options early (the program would be "--"), and
		 * --tool/--out are the launcher's own: either way no profile is written. */
		if (c == OPT_VG_OPT && (strncmp(optarg, "-", 1) || !strcmp(optarg, "--") ||
					!strncmp(optarg, "--tool=", 7) ||
					!strncmp(optarg, "--out=", 6))) {
			fprintf(stderr, "tephra grind: --valgrind-opt: '%s' is not a Valgrind option "
				"tephra grind can pass on\n", optarg);
			return 2;
		}
		/* Following children is ours to decide: it changes how the files are written. */
		if (c == OPT_VG_OPT && (!strncmp(optarg, "--trace-children=", 17) ||
					!strncmp(optarg, "--proc-dir=", 11) ||
					!strncmp(optarg, "--exec-notes=", 13))) {
			fprintf(stderr, "tephra grind: --valgrind-opt: '%s' is tephra grind's to "
				"set (children are followed unless --no-children)\n", optarg);
			return 2;
		}
		switch (c) {
		case 'o': output = optarg; break;
		case 'f':
			a->format = export_format_parse(optarg, 1, "tephra grind");
			if (a->format < 0)
				return 2;
			break;
		case OPT_SVG: a->svg = optarg; break;
		case OPT_NO_SVG: a->svg = NULL; break;
		case OPT_SKIP: add_tool_opt(a, "--skip-obj=%s", optarg); break;
		case OPT_START: add_tool_opt(a, "--start=%s", optarg); break;
		case OPT_COLLECT: add_tool_opt(a, "--collect-atstart=%s", optarg); break;
		case OPT_TAIL: add_tool_opt(a, "--tail-calls=%s", optarg); break;
		case OPT_KEEP_COLD: add_tool_opt(a, "%s", "--keep-cold=yes"); break;
		case OPT_BELOW_MAIN: add_tool_opt(a, "%s", "--show-below-main=yes"); break;
		case OPT_OBJ_PREFIX: add_tool_opt(a, "%s", "--obj-prefix=yes"); break;
		case OPT_SHOW_PLT: add_tool_opt(a, "%s", "--show-plt=yes"); break;
		case OPT_INLINE:
			add_tool_opt(a, "%s", "--inline=yes");
			add_tool_opt(a, "%s", "--read-inline-info=yes");
			break;
		case OPT_VG_OPT: add_tool_opt(a, "%s", optarg); break;
		case OPT_VALGRIND: a->valgrind = optarg; break;
		case OPT_NO_CHILDREN: a->no_children = 1; break;
		case OPT_PID: a->with_pid = 1; break;
		case 'q': a->quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "tephra grind: no program to run\n");
		usage(stderr);
		return 2;
	}
	/* the tool writes in a directory of ours, named after -o's base name */
	const char *oslash = output ? strrchr(output, '/') : NULL;
	if (oslash && memmem(output, (size_t)(oslash - output), "%p", 2)) {
		fprintf(stderr, "tephra grind: -o: %%p only in the file name, not the directory\n");
		return 2;
	}
	if (a->with_pid && a->no_children) {
		fprintf(stderr, "tephra grind: --pid names the roots of the processes of one "
			"profile: not with --no-children\n");
		return 2;
	}
	if (a->format != EXPORT_FORMAT_FOLDED) {
		/* the export is made of the merged processes, which --no-children does not
		 * have, and is one file */
		if (a->no_children) {
			fprintf(stderr, "tephra grind: --format: not with --no-children\n");
			return 2;
		}
		if (output && strstr(output, "%p")) {
			fprintf(stderr, "tephra grind: --format: one file, no %%p in -o\n");
			return 2;
		}
		if (!output)
			output = a->default_output = export_format_file_name(a->format, "grind");
	}
	if (output)
		a->folded = output;
	if (a->quiet)
		add_tool_opt(a, "%s", "--summary=no");
	return -1;
}

/* PATTERN with every "%p" replaced by PID, into OUT. */
static int expand_pid(char *out, size_t cap, const char *pattern, long pid)
{
	size_t n = 0;
	for (const char *c = pattern; *c; c++) {
		int k;
		if (c[0] == '%' && c[1] == 'p') {
			k = snprintf(out + n, cap - n, "%ld", pid);
			c++;
		} else {
			k = snprintf(out + n, cap - n, "%c", *c);
		}
		if (k < 0 || (size_t)k >= cap - n)
			return -1;
		n += (size_t)k;
	}
	return 0;
}

/* T written to PATH (a user's output, or "-": base/out_file.h's rule). */
static int write_table(const struct fold_table *t, const char *path)
{
	struct out_file o;
	FILE *f = cli_out_open(&o, "tephra grind", path);
	return f ? cli_out_close(&o, "tephra grind", fold_table_write(t, f) == 0) : -1;
}

static int deepest_line(void *arg, const char *stack, size_t len, uint64_t weight)
{
	(void)weight;
	size_t depth = 1, *deepest = arg;
	for (size_t i = 0; i < len; i++)
		depth += stack[i] == ';';
	if (depth > *deepest)
		*deepest = depth;
	return 0;
}

static void warn_untraced(const struct grind_procs *p, int no_children)
{
	for (size_t i = 0; i < p->nuntraced; i++)
		fprintf(stderr, "tephra grind: warning: process %d ran %s without the tool (%s): "
			"its instructions are not counted\n", p->untraced[i].pid,
			p->untraced[i].path, no_children ? "--no-children" :
			"not followed: a setuid or setgid program, or one "
			"--trace-children-skip names");
}

/* What was asked for and came to nothing, as the processes' files say (grind_procs.h):
 * no process was ever counted (--start=off, no start request), a --skip-obj pattern
 * matched no object any process ran code in.  With --no-children the tool says it. */
static void warn_unused(const struct grind_args *a, const struct grind_procs *p,
			const char *prog)
{
	int started = 0;
	for (size_t i = 0; i < p->nimages; i++)
		started |= p->images[i].started;
	if (p->nimages && !started)
		fprintf(stderr, "tephra grind: %s: nothing was counted: with --start=off counting "
			"waits for a start request (CALLGRIND_START_INSTRUMENTATION or "
			"TEPHRA_GRIND_START), and %s made none\n", a->folded, prog);
	/* the tool numbers the patterns in the order of its options, which is ours */
	for (size_t i = 0, k = 0; i < a->ntool_opts; i++) {
		if (strncmp(a->tool_opts[i], "--skip-obj=", 11))
			continue;
		int matched = k >= sizeof(p->images[0].skips) - 1; /* past what is said */
		for (size_t j = 0; j < p->nimages; j++)
			matched |= strlen(p->images[j].skips) > k && p->images[j].skips[k] == '1';
		if (!matched)
			fprintf(stderr, "tephra grind: warning: %s matched no object %s ran code "
				"in: nothing was skipped for it\n", a->tool_opts[i], prog);
		k++;
	}
}

/* One stack of a process's table (line_to_export's argument). */
struct image_export {
	struct export_profile *profile;
	uint32_t thread;
};

static int line_to_export(void *arg, const char *stack, size_t len, uint64_t weight)
{
	struct image_export *x = arg;
	export_profile_add_named(x->profile, x->thread, stack, len, weight);
	return 0;
}

/* The processes' stacks written as FORMAT to PATH: a process is a thread of the export
 * (pid, no tid: the tool merges a process's threads; its comm), not a root frame; the
 * weights are instructions.  Returns 0 or -1. */
static int export_processes(const struct grind_procs *p, int format, const char *path,
			    const char *prog)
{
	struct export_profile *prof = export_profile_new(format == EXPORT_FORMAT_SPEEDSCOPE);
	struct export_sink sink = export_profile_sink(prof);
	export_profile_set_unit(prof, "instructions");
	for (size_t i = 0; i < p->nimages; i++) {
		struct image_export x = { prof, (uint32_t)i };
		sink.thread(sink.ctx, x.thread, p->images[i].pid, -1, p->images[i].comm);
		fold_table_each_line(p->images[i].stacks, line_to_export, &x);
	}
	int rc = export_format_write(prof, format, path, prog, 0, "tephra grind");
	export_profile_free(prof);
	return rc ? -1 : 0;
}

/* The files of every process in DIR merged into the profile (FOLDED_ABS, or a file per
 * process when it holds %p) and the graph; prints the summary.  Returns 0 or -1. */
static int merge_processes(const struct grind_args *a, const char *dir, const char *folded_abs,
			   const char *prog, const char *title, int rc)
{
	struct tephra_error err = { { 0 } };
	struct grind_procs p;
	if (grind_procs_read(dir, &p, &err) != 0) {
		fprintf(stderr, "tephra grind: %s\n", err.msg);
		grind_procs_release(&p);
		return -1;
	}
	warn_untraced(&p, 0);
	if (p.nrunning)
		fprintf(stderr, "tephra grind: warning: %zu process%s started by %s still ran when "
			"it ended: not counted\n", p.nrunning, p.nrunning == 1 ? "" : "es", prog);
	if (p.nincomplete)
		fprintf(stderr, "tephra grind: warning: %zu process file%s left out: %s\n",
			p.nincomplete, p.nincomplete == 1 ? "" : "s", p.incomplete.msg);
	warn_unused(a, &p, prog);
	if (!p.nimages) {
		fprintf(stderr, "tephra grind: %s was not written (the program or Valgrind "
			"failed, exit status %d)\n", a->folded, rc);
		grind_procs_release(&p);
		return -1;
	}
	/* A root frame per process, also when only one ran (grind_procs.h). */
	int ret = 0;
	struct fold_table *all = grind_procs_merge(&p, -1, a->with_pid);
	char path[PATH_MAX];
	if (a->format != EXPORT_FORMAT_FOLDED) {
		ret = export_processes(&p, a->format, folded_abs, prog);
	} else if (strstr(folded_abs, "%p")) {
		for (size_t i = 0; i < p.nimages && ret == 0; i++) {
			int pid = p.images[i].pid, seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= p.images[j].pid == pid;
			if (seen)
				continue;
			struct fold_table *one = grind_procs_merge(&p, pid, a->with_pid);
			if (expand_pid(path, sizeof(path), folded_abs, pid) != 0) {
				fprintf(stderr, "tephra grind: %s: path too long\n", a->folded);
				ret = -1;
			} else if (write_table(one, path) != 0) {
				ret = -1;
			}
			fold_table_free(one);
		}
	} else {
		ret = write_table(all, folded_abs);
	}
	/* The graph is drawn from a file of ours: the output may be a device or a pipe. */
	char graph_input[PATH_MAX];
	if (ret == 0 && a->svg) {
		if (path_join(graph_input, sizeof(graph_input), dir, "all.folded") != 0) {
			fprintf(stderr, "tephra grind: %s: path too long\n", dir);
			ret = -1;
		} else if (write_table(all, graph_input) != 0 ||
			   render_svg(graph_input, a->svg, title) != 0) {
			ret = -1;
		}
	}
	if (ret == 0 && !a->quiet) {
		size_t deepest = 0;
		uint64_t underflows = 0, seeded = 0;
		fold_table_each_line(all, deepest_line, &deepest);
		for (size_t i = 0; i < p.nimages; i++) {
			underflows += p.images[i].underflows;
			seeded += p.images[i].seeded;
		}
		char procs[64] = "";
		if (p.nimages > 1)
			snprintf(procs, sizeof(procs), " in %zu processes", p.nimages);
		fprintf(stderr, "tephra grind: %s: %" PRIu64 " instructions counted%s, %zu stacks, "
			"deepest stack %zu frames, %" PRIu64 " underflows repaired, %" PRIu64
			" frames seeded\n", folded_abs, fold_table_total(all), procs,
			fold_table_nr_stacks(all), deepest, underflows, seeded);
	}
	fold_table_free(all);
	grind_procs_release(&p);
	return ret;
}

/* The files the tool wrote itself into OUTDIR, ours, named after -o's base name (with
 * --no-children FILE and FILE.PID of a forked process; FILE.N of a dump request in
 * either mode), copied to -o's directory (or standard output, FIRST first) by
 * base/out_file.h's rule: nothing the tool opens is a path someone else could have
 * planted.  Returns 0 or -1. */
static int copy_tool_files(const struct grind_args *a, const char *outdir, const char *first)
{
	char path[PATH_MAX], dest[PATH_MAX];
	struct dirent **names;
	int n = scandir(outdir, &names, NULL, alphasort), ret = n < 0 ? -1 : 0;
	const char *slash = strrchr(a->folded, '/');
	int dirlen = slash ? (int)(slash - a->folded) + 1 : 0;
	for (int pass = 0; pass < 2 && ret == 0; pass++) {
		for (int i = 0; i < n && ret == 0; i++) {
			const char *name = names[i]->d_name;
			int is_first = first && !strcmp(name, first);
			if (name[0] == '.' || is_first != !pass)
				continue;
			if (path_join(path, sizeof(path), outdir, name) != 0)
				ret = -1;
			else if (!strcmp(a->folded, "-"))
				snprintf(dest, sizeof(dest), "-");
			else if ((size_t)snprintf(dest, sizeof(dest), "%.*s%s", dirlen, a->folded,
						  name) >= sizeof(dest))
				ret = -1;
			if (ret == 0 && cli_out_copy("tephra grind", path, dest) != 0)
				ret = -1;
		}
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(n >= 0 ? names : NULL);
	return ret;
}

/* With --no-children the tool writes the profile itself (copy_tool_files). */
static int single_process(const struct grind_args *a, const char *dir, const char *outdir,
			  const char *base, pid_t vg_pid, const char *title, int rc)
{
	struct tephra_error err = { { 0 } };
	struct grind_procs p;
	if (grind_procs_read(dir, &p, &err) != 0)
		fprintf(stderr, "tephra grind: %s\n", err.msg);
	warn_untraced(&p, 1);
	grind_procs_release(&p);
	char first[NAME_MAX + 1], path[PATH_MAX];
	struct stat st;
	/* Valgrind expands %p itself: the first process's file is the one to draw. */
	if (expand_pid(first, sizeof(first), base, (long)vg_pid) != 0 ||
	    path_join(path, sizeof(path), outdir, first) != 0 || stat(path, &st) != 0) {
		fprintf(stderr, "tephra grind: %s was not written (the program or Valgrind "
			"failed, exit status %d)\n", a->folded, rc);
		return -1;
	}
	if (copy_tool_files(a, outdir, first) != 0)
		return -1;
	if (a->svg && render_svg(path, a->svg, title) != 0)
		return -1;
	return 0;
}

static int grind(struct grind_args *a, int argc, char **argv)
{
	struct tephra_error err = { { 0 } };
	char libdir[PATH_MAX];
	if (find_lib_dir(libdir, sizeof(libdir), &err) != 0 ||
	    check_version(libdir, a->valgrind, &err) != 0) {
		fprintf(stderr, "tephra grind: %s\n", err.msg);
		return 1;
	}
	/* The summary names -o as an absolute path (the merged profile's), as the
	 * tool's did; "-" is standard output. */
	char folded_abs[PATH_MAX];
	if (a->folded[0] == '/' || !strcmp(a->folded, "-")) {
		snprintf(folded_abs, sizeof(folded_abs), "%s", a->folded);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd))) {
			perror("tephra grind");
			return 1;
		}
		if (path_join(folded_abs, sizeof(folded_abs), cwd, a->folded) != 0) {
			fprintf(stderr, "tephra grind: %s: path too long\n", a->folded);
			return 1;
		}
	}
	/* Fail before a long run, not after it, when the output cannot be written (with
	 * %p: the file our own pid would have, in the same directory); nothing existing
	 * is touched. */
	char probe[PATH_MAX];
	if (expand_pid(probe, sizeof(probe), a->folded, (long)getpid()) != 0) {
		fprintf(stderr, "tephra grind: %s: path too long\n", a->folded);
		return 1;
	}
	if (cli_out_probe("tephra grind", probe) != 0 ||
	    (a->svg && cli_out_probe("tephra grind", a->svg) != 0))
		return 1;
	/* Where the tool writes a file per process (and notes of programs it did not
	 * follow), and in DIR/out the files it writes itself (copy_tool_files): ours,
	 * removed at the end. */
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], outdir[PATH_MAX], tool_out[PATH_MAX], shown[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/tephra-grind.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "tephra grind: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	const char *slash = strrchr(a->folded, '/');
	const char *base = !strcmp(a->folded, "-") ? "grind.folded" : slash ? slash + 1 : a->folded;
	const char *abs_slash = strrchr(folded_abs, '/');
	snprintf(shown, sizeof(shown), "%.*s", abs_slash ? (int)(abs_slash - folded_abs) + 1 : 0,
		 folded_abs);
	if (path_join(outdir, sizeof(outdir), dir, "out") != 0 ||
	    path_join(tool_out, sizeof(tool_out), outdir, base) != 0 || mkdir(outdir, 0700) != 0) {
		fprintf(stderr, "tephra grind: %s: %s\n", outdir, strerror(errno));
		grind_procs_remove_dir(dir);
		return 1;
	}
	pid_t vg_pid = -1;
	int rc = -1;
	/* a signal during the version check: the program is not started */
	if (!child_interrupted() && !child_stopped())
		rc = run_valgrind(a, libdir, tool_out, shown, dir, argc, argv, &vg_pid);
	int ret = rc < 0 ? -1 : 0;
	char title[512];
	snprintf(title, sizeof(title), "tephra grind: %s", argv[0]);
	if (ret == 0 && child_stopped()) {
		fprintf(stderr, "tephra grind: stopped by %s: nothing written\n",
			strsignal(child_stopped()));
		ret = -1;
	} else if (ret == 0 && child_interrupted()) {
		/* the tool wrote its counts as the program ended (as callgrind does) */
		fprintf(stderr, "tephra grind: interrupted (%s): writing what was counted until "
			"then\n", strsignal(child_interrupted()));
	}
	if (ret == 0)
		ret = a->no_children ? single_process(a, dir, outdir, base, vg_pid, title, rc)
				     : merge_processes(a, dir, folded_abs, argv[0], title, rc);
	/* the dumps a program asked for (CALLGRIND_DUMP_STATS) */
	if (ret == 0 && !a->no_children && copy_tool_files(a, outdir, NULL) != 0)
		ret = -1;
	grind_procs_remove_dir(outdir);
	grind_procs_remove_dir(dir);
	/* our directory is gone: a signal that asked to stop ends us now */
	child_signals_end();
	if (rc < 0)
		return child_interrupted() ? 128 + child_interrupted() : 1;
	if (ret != 0)
		return rc ? rc : 1;
	/* The program's exit status is ours, as under valgrind itself. */
	return rc;
}

int cmd_grind(int argc, char **argv)
{
	struct grind_args a = { .folded = "grind.folded", .svg = "grind.svg",
				.valgrind = "valgrind" };
	int rc = parse_args(&a, argc, argv);
	if (rc < 0)
		rc = grind(&a, argc - optind, argv + optind);
	child_signals_end(); /* on every way out */
	for (size_t i = 0; i < a.ntool_opts; i++)
		free(a.tool_opts[i]);
	free(a.tool_opts);
	free(a.default_output);
	return rc;
}
