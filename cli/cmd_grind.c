/* cmd_grind.c - `tephra grind`: run a program under Valgrind with our tool
 * (tephragrind, built from grind/) and write folded stacks plus a flame graph.
 *
 * The tool is not installed into Valgrind's own directory: the launcher points
 * VALGRIND_LIB at a directory holding our tool beside links to the stock preload
 * objects (found beside this binary, cli/companion.h, or via TEPHRA_GRIND_LIB) and
 * runs the system's /usr/bin/valgrind.  A tool only works with the core it was linked
 * with, so the installed Valgrind's version is checked against the one built against. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

#include "child.h"
#include "commands.h"
#include "flame_cli.h"
#include "cli_files.h"
#include "companion.h"

#define TOOL_NAME "tephragrind"

struct grind_args {
	const char *folded;      /* -o */
	const char *svg;         /* --svg, NULL with --no-svg */
	const char *valgrind;    /* --valgrind */
	char **tool_opts;        /* options handed to the tool / valgrind */
	size_t ntool_opts;
	int quiet;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: tephra grind [options] [--] PROGRAM [ARGS...]\n"
"Runs PROGRAM under Valgrind, counting every guest instruction against its full call\n"
"path; writes folded stacks and a flame graph.\n\n"
"  -o, --output=FILE       folded stacks [grind.folded]; a forked child writes FILE.PID\n"
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

static int run_valgrind(const struct grind_args *a, const char *libdir, const char *folded_abs,
			int argc, char **argv)
{
	size_t n = 0, cap = a->ntool_opts + (size_t)argc + 8;
	char **av = calloc(cap, sizeof(*av));
	char *out_opt, *tool_opt;
	if (!av || asprintf(&out_opt, "--out=%s", folded_abs) < 0 ||
	    asprintf(&tool_opt, "--tool=%s", TOOL_NAME) < 0) {
		perror("tephra grind");
		return -1;
	}
	av[n++] = (char *)a->valgrind;
	av[n++] = tool_opt;
	av[n++] = "-q";
	av[n++] = out_opt;
	for (size_t i = 0; i < a->ntool_opts; i++)
		av[n++] = a->tool_opts[i];
	av[n++] = "--";
	for (int i = 0; i < argc; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	const struct child_env env[] = { { "VALGRIND_LIB", libdir }, { NULL, NULL } };
	struct child_cmd cmd = { .argv = av, .env = env, .who = "tephra grind" };
	int rc = child_run(&cmd, NULL);
	free(av);
	free(out_opt);
	free(tool_opt);
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
       OPT_BELOW_MAIN, OPT_OBJ_PREFIX, OPT_SHOW_PLT, OPT_VG_OPT, OPT_VALGRIND, OPT_INLINE };

/* Parses the options into A; returns -1 to go on, or the exit status. */
static int parse_args(struct grind_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
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
	while ((c = getopt_long(argc, argv, "+o:qh", longopts, NULL)) != -1) {
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
		switch (c) {
		case 'o': a->folded = optarg; break;
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
	if (a->quiet)
		add_tool_opt(a, "%s", "--summary=no");
	return -1;
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
	/* The tool resolves a relative name against the program's working directory,
	 * which is ours: make it absolute so a program that chdir()s changes nothing. */
	char folded_abs[PATH_MAX];
	if (a->folded[0] == '/') {
		snprintf(folded_abs, sizeof(folded_abs), "%s", a->folded);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd))) {
			perror("tephra grind: getcwd");
			return 1;
		}
		if (path_join(folded_abs, sizeof(folded_abs), cwd, a->folded) != 0) {
			fprintf(stderr, "tephra grind: %s: path too long\n", a->folded);
			return 1;
		}
	}
	/* Fail before a long run, not after it, when the output cannot be written. */
	int fd = open(folded_abs, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "tephra grind: %s: %s\n", a->folded, strerror(errno));
		return 1;
	}
	close(fd);
	unlink(folded_abs);
	if (a->svg && !cli_can_write(a->svg)) {
		fprintf(stderr, "tephra grind: %s: %s\n", a->svg, strerror(errno));
		return 1;
	}
	int rc = run_valgrind(a, libdir, folded_abs, argc, argv);
	if (rc < 0)
		return 1;
	struct stat st;
	if (stat(folded_abs, &st) != 0) {
		fprintf(stderr, "tephra grind: %s was not written (the program or Valgrind "
			"failed, exit status %d)\n", a->folded, rc);
		return rc ? rc : 1;
	}
	if (a->svg) {
		char title[512];
		snprintf(title, sizeof(title), "tephra grind: %s", argv[0]);
		if (render_svg(folded_abs, a->svg, title) != 0)
			return rc ? rc : 1;
	}
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
	for (size_t i = 0; i < a.ntool_opts; i++)
		free(a.tool_opts[i]);
	free(a.tool_opts);
	return rc;
}
