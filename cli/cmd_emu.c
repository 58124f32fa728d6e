/* cmd_emu.c - tephra emu: profile a RISC-V guest under qemu-riscv64 with the tephra
 * plugin (qemu/), then draw the flame graph of the folded profile it wrote. */
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

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "child.h"
#include "commands.h"
#include "flame_cli.h"
#include "cli_files.h"
#include "cli_number.h"
#include "companion.h"
#include "export/export_profile.h"
#include "export_source.h"
#include "trace/guest_elf.h"
#include "trace/trace_export.h"

static const char usage_text[] =
	"usage: tephra emu [options] -- [qemu-riscv64 [qemu options]] GUEST [args]\n"
	"\n"
	"Runs GUEST under qemu-riscv64 with tephra's plugin, which follows the guest's call\n"
	"stack in the emulator and counts every instruction on its full call path.  Writes\n"
	"GUEST.folded (folded stacks, one count = one instruction) and GUEST.svg, and prints\n"
	"self-check counters on stderr.\n"
	"\n"
	"  -o, --output FILE     folded output (default: GUEST's name + .folded in the\n"
	"                        current directory); the SVG goes next to it (.svg);\n"
	"                        '-': standard output, at the end, no SVG\n"
	"  -f, --format FORMAT   write -o as folded (the default),\n"
	"                        " EXPORT_FORMAT_HELP ",\n"
	"                        with addresses, inline chains and source lines; no SVG\n"
	"                        [GUEST.pb.gz, GUEST.callgrind, GUEST.speedscope.json]\n"
	"      --raw             frames as hex addresses (call sites; leaf = executing pc),\n"
	"                        for `tephra symbolize`; no SVG\n"
	"      --budget N        stop the guest after exactly N instructions\n"
	"      --checkpoint N    rewrite the folded output every N instructions (atomically)\n"
	"      --nest-tail       show tail-called functions under their tail-caller\n"
	"      --no-svg          write the folded output only\n"
	"      --plugin PATH     the plugin (default: $TEPHRA_QEMU_PLUGIN, else the one\n"
	"                        installed or built with tephra)\n"
	"  -h, --help            this text\n";

/* QEMU user-mode options that take a value (so the guest is the first word after). */
static int qemu_opt_takes_value(const char *o)
{
	static const char *const with_value[] = { "-L", "-s", "-cpu", "-E", "-U", "-0", "-r",
						  "-d", "-D", "-p", "-seed", "-trace", "-plugin",
						  "-B", "-R", "-g", "-dfilter", "-t", NULL };
	for (int i = 0; with_value[i]; i++)
		if (!strcmp(o, with_value[i]))
			return 1;
	return 0;
}

static char *with_suffix(const char *path, const char *old, const char *suffix)
{
	size_t len = strlen(path), ol = strlen(old);
	struct strbuf sb = STRBUF_INIT;
	if (len > ol && !strcmp(path + len - ol, old))
		strbuf_add(&sb, path, len - ol);
	else
		strbuf_addstr(&sb, path);
	strbuf_addstr(&sb, suffix);
	return sb.buf;
}

static int write_svg(const char *folded, const char *svg, const char *guest)
{
	struct flame_cli c;
	flame_cli_init(&c, "tephra emu");
	c.output = svg;
	c.svg.countname = "instructions";
	char title[300];
	snprintf(title, sizeof(title), "Instructions of %s (qemu-riscv)", guest);
	c.svg.title = title;
	return flame_cli_graph_file(&c, folded);
}

/* The raw stacks in RAW_PATH of GUEST written as FORMAT to PATH (NAME the profile's).
 * Returns 0, or 1 having printed why. */
static int export_guest(const char *raw_path, const char *guest, int format, const char *path,
			const char *name)
{
	struct tephra_error err = { { 0 } };
	struct guest_elf g;
	if (guest_elf_open(&g, guest, &err) != 0) {
		fprintf(stderr, "tephra emu: %s\n", err.msg);
		return 1;
	}
	struct guest_dwarf *dw = guest_dwarf_open(guest, &err);
	FILE *in = fopen(raw_path, "r");
	int rc = 1;
	if (dw && in) {
		struct export_profile *p = export_profile_new(format == EXPORT_FORMAT_SPEEDSCOPE);
		struct export_sink sink = export_profile_sink(p);
		export_profile_set_unit(p, "instructions");
		char abs[PATH_MAX];
		struct trace_export *x = trace_export_new(realpath(guest, abs) ? abs : guest,
							  &g.syms, dw, &sink);
		int read_rc = trace_export_read(x, in, raw_path, &err);
		trace_export_finish(x);
		if (read_rc)
			fprintf(stderr, "tephra emu: %s\n", err.msg);
		else
			rc = export_format_write(p, format, path, name, 0, "tephra emu");
		export_profile_free(p);
	} else if (!dw) {
		fprintf(stderr, "tephra emu: %s\n", err.msg);
	} else {
		fprintf(stderr, "tephra emu: %s: %s\n", raw_path, strerror(errno));
	}
	if (in)
		fclose(in);
	guest_dwarf_close(dw);
	guest_elf_close(&g);
	return rc;
}

enum { OPT_RAW = 1, OPT_BUDGET, OPT_CHECKPOINT, OPT_NEST, OPT_NO_SVG, OPT_PLUGIN };

int cmd_emu(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
		{ "nest-tail", no_argument, NULL, OPT_NEST },
		{ "no-svg", no_argument, NULL, OPT_NO_SVG },
		{ "plugin", required_argument, NULL, OPT_PLUGIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *budget = NULL, *checkpoint = NULL;
	char *plugin = NULL;
	int raw = 0, nest = 0, no_svg = 0, format = EXPORT_FORMAT_FOLDED, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'f':
			format = export_format_parse(optarg, 1, "tephra emu");
			if (format < 0)
				return 2;
			break;
		case OPT_RAW: raw = 1; break;
		case OPT_BUDGET: budget = optarg; break;
		case OPT_CHECKPOINT: checkpoint = optarg; break;
		case OPT_NEST: nest = 1; break;
		case OPT_NO_SVG: no_svg = 1; break;
		case OPT_PLUGIN: plugin = xstrdup(optarg); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	/* passed on to the plugin as text, once known to be a count (0 would mean none) */
	uint64_t count;
	if ((budget && cli_number_u64("tephra emu", "--budget", budget, 1, UINT64_MAX, &count)) ||
	    (checkpoint &&
	     cli_number_u64("tephra emu", "--checkpoint", checkpoint, 1, UINT64_MAX, &count)))
		return 2;
	/* the export is made from the raw stacks, once, at the end */
	if (format != EXPORT_FORMAT_FOLDED && (raw || checkpoint)) {
		fprintf(stderr, "tephra emu: --format: not with %s\n", raw ? "--raw" : "--checkpoint");
		return 2;
	}
	if (output && !*output) {
		fprintf(stderr, "tephra emu: -o: an empty file name\n");
		return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "tephra emu: no guest program to run (tephra emu [options] -- GUEST [args])\n");
		return 2;
	}
	/* The command: [qemu [qemu options]] guest [args]. */
	char **cmd = argv + optind;
	int ncmd = argc - optind, qemu_given = 0;
	const char *base = strrchr(cmd[0], '/') ? strrchr(cmd[0], '/') + 1 : cmd[0];
	if (!strncmp(base, "qemu-", 5))
		qemu_given = 1;
	int gi = qemu_given ? 1 : 0;
	while (gi < ncmd && cmd[gi][0] == '-') {
		if (!strcmp(cmd[gi], "-plugin")) {
			fprintf(stderr, "tephra emu: the command already loads a plugin; QEMU 7.2 "
					"runs them all, but tephra emu adds its own: drop -plugin\n");
			return 2;
		}
		gi += qemu_opt_takes_value(cmd[gi]) ? 2 : 1;
	}
	if (gi >= ncmd) {
		fprintf(stderr, "tephra emu: no guest program in the command\n");
		return 2;
	}
	const char *guest = cmd[gi];
	/* Checked here so that a typo is not a QEMU run that leaves no profile. */
	if (access(guest, R_OK) != 0) {
		fprintf(stderr, "tephra emu: %s: cannot open the guest: %s\n", guest, strerror(errno));
		return 1;
	}
	const char *gbase = strrchr(guest, '/') ? strrchr(guest, '/') + 1 : guest;
	char *folded = output ? xstrdup(output) : export_format_file_name(format, gbase);
	char *svg = with_suffix(folded, ".folded", ".svg");
	struct strbuf parg = STRBUF_INIT;
	char **qargv = NULL;
	int rc = 0;
	char tmpdir[PATH_MAX] = "";
	char *export_path = NULL, *copy_path = NULL;
	struct out_target ot;
	struct tephra_error oerr;
	if (cli_out_probe("tephra emu", folded) != 0 ||
	    (!no_svg && !raw && format == EXPORT_FORMAT_FOLDED && strcmp(folded, "-") &&
	     cli_out_probe("tephra emu", svg) != 0)) {
		rc = 1;
		goto out;
	}
	if (out_file_resolve(folded, &ot, &oerr) != 0) {
		fprintf(stderr, "tephra emu: %s\n", oerr.msg);
		rc = 1;
		goto out;
	}
	if (ot.kind == OUT_KIND_STDOUT)
		no_svg = 1; /* the SVG would have no name */
	if (format != EXPORT_FORMAT_FOLDED || ot.kind != OUT_KIND_RENAME) {
		/* The plugin writes the raw stacks, or the profile for standard output or a
		 * device (copied there once, at the end: no checkpoints), in a directory of
		 * ours. */
		const char *tmp = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/tephra-emu.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "tephra emu: %s: %s\n", tmpdir, strerror(errno));
			tmpdir[0] = 0;
			rc = 1;
			goto out;
		}
		if (format != EXPORT_FORMAT_FOLDED) {
			export_path = folded;
			folded = with_suffix(tmpdir, "", "/raw.folded");
			raw = 1;
		} else {
			copy_path = folded;
			folded = with_suffix(tmpdir, "", "/out.folded");
		}
	}
	const char *shown = export_path ? export_path : copy_path ? copy_path : folded;
	if (!plugin) {
		char path[PATH_MAX];
		struct tephra_error err;
		if (companion_path(COMPANION_QEMU_PLUGIN, path, sizeof(path), &err) != 0) {
			fprintf(stderr, "tephra emu: %s\n", err.msg);
			rc = 1;
			goto out;
		}
		plugin = xstrdup(path);
	}
	if (access(plugin, R_OK) != 0) {
		fprintf(stderr, "tephra emu: %s: plugin not found (%s)\n", plugin, strerror(errno));
		rc = 1;
		goto out;
	}
	if (strchr(folded, ',') || strchr(plugin, ',')) {
		fprintf(stderr, "tephra emu: %s: QEMU plugin arguments cannot hold a comma\n",
			strchr(folded, ',') ? folded : plugin);
		rc = 2;
		goto out;
	}
	/* qemu-riscv64 refuses another machine's program only after the plugin has written
	 * an empty profile */
	struct guest_elf ge;
	struct tephra_error gerr;
	if (guest_elf_open(&ge, guest, &gerr) != 0) {
		fprintf(stderr, "tephra emu: %s: tephra emu runs RISC-V ELF programs\n", gerr.msg);
		rc = 1;
		goto out;
	}
	guest_elf_close(&ge);
	strbuf_addf(&parg, "%s,out=%s", plugin, folded);
	if (raw)
		strbuf_addstr(&parg, ",raw=on");
	if (nest)
		strbuf_addstr(&parg, ",nest=on");
	if (budget)
		strbuf_addf(&parg, ",budget=%s", budget);
	if (checkpoint)
		strbuf_addf(&parg, ",checkpoint=%s", checkpoint);

	/* argv: qemu -U LD_PRELOAD -plugin ARGS [qemu options] guest args */
	qargv = xcalloc((size_t)ncmd + 8, sizeof(*qargv));
	int k = 0;
	qargv[k++] = qemu_given ? cmd[0] : "qemu-riscv64";
	qargv[k++] = "-U";
	qargv[k++] = "LD_PRELOAD";
	qargv[k++] = "-plugin";
	qargv[k++] = parg.buf;
	for (int i = qemu_given ? 1 : 0; i < ncmd; i++)
		qargv[k++] = cmd[i];
	qargv[k] = NULL;

	/* Whether the plugin wrote: the file is new, or a new one was renamed over it. */
	struct stat before, sst;
	int had = stat(folded, &before) == 0;
	/* LD_PRELOAD too, so the plugin sees QEMU kill itself on a guest fault. */
	const struct child_env env[] = { { "LD_PRELOAD", plugin }, { NULL, NULL } };
	struct child_cmd qemu = { .argv = qargv, .env = env, .who = "tephra emu" };
	int sig;
	rc = child_run(&qemu, &sig);
	if (rc < 0) {
		rc = 1;
		goto out;
	}
	if (child_stopped()) {
		/* the guest has ended; the plugin's file stays, nothing more is made of it */
		fprintf(stderr, "tephra emu: stopped by %s: %s\n", strsignal(child_stopped()),
			export_path || raw || no_svg ? "nothing more written" : "no graph drawn");
		goto out;
	}
	if (child_interrupted())
		fprintf(stderr, "tephra emu: interrupted (%s): writing what was counted until "
			"then\n", strsignal(child_interrupted()));
	else if (sig)
		fprintf(stderr, "tephra emu: the guest was killed by signal %d (%s); %s holds the "
				"profile up to that point\n", sig, strsignal(sig), shown);
	if (stat(folded, &sst) != 0 ||
	    (had && sst.st_dev == before.st_dev && sst.st_ino == before.st_ino)) {
		fprintf(stderr, "tephra emu: the plugin wrote no profile (%s)\n", shown);
		if (!rc)
			rc = 1;
		goto out;
	}
	if (copy_path && cli_out_copy("tephra emu", folded, copy_path) != 0) {
		rc = 1;
		goto out;
	}
	if (export_path) {
		if (export_guest(folded, guest, format, export_path, gbase) == 0)
			fprintf(stderr, "tephra emu: wrote %s\n", export_path);
		else if (!rc)
			rc = 1;
	} else if (!raw && !no_svg) {
		if (write_svg(folded, svg, gbase) == 0)
			fprintf(stderr, "tephra emu: wrote %s and %s\n", shown, svg);
		else if (!rc)
			rc = 1;
	} else {
		fprintf(stderr, "tephra emu: wrote %s\n", strcmp(shown, "-") ? shown : "<stdout>");
	}
out:
	if (tmpdir[0]) {
		remove(folded);
		rmdir(tmpdir);
	}
	child_signals_end(); /* our files are gone: a signal that asked to stop ends us */
	free(export_path);
	free(copy_path);
	free(qargv);
	strbuf_release(&parg);
	free(folded);
	free(svg);
	free(plugin);
	return rc;
}
