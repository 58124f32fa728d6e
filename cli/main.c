/* main.c - the tephra command: dispatches to one subcommand. */
#include <elfutils/version.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "commands.h"
#include "tephra/version.h"

/* What the build used, passed by the Makefile (dist/build.mk); empty when the Valgrind
 * tool was not built (no Valgrind at build time). */
#ifndef TEPHRA_BUILT_VALGRIND
#define TEPHRA_BUILT_VALGRIND ""
#endif
#ifndef TEPHRA_BUILT_VALGRIND_PLATFORM
#define TEPHRA_BUILT_VALGRIND_PLATFORM ""
#endif
#ifndef TEPHRA_BUILT_QEMU_PLUGIN_API
#define TEPHRA_BUILT_QEMU_PLUGIN_API ""
#endif

struct command {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
};

static const struct command commands[] = {
	{ "script", cmd_script, "print perf.data samples as `perf script` does" },
	{ "fold", cmd_fold, "fold perf.data samples into folded stacks" },
	{ "stat", cmd_stat, "report on a perf.data file and the quality of its stacks" },
	{ "record", cmd_record, "run perf record on a command and write a flame graph" },
	{ "flamegraph", cmd_flamegraph, "render perf.data or folded stacks as an SVG flame graph" },
	{ "diff", cmd_diff, "render a differential flame graph of two profiles" },
	{ "heatmap", cmd_heatmap, "write a subsecond-offset heatmap page of perf.data samples" },
	{ "grind", cmd_grind, "count instructions per call path under Valgrind" },
	{ "emu", cmd_emu, "profile a RISC-V guest under qemu-riscv64" },
	{ "trace", cmd_trace, "fold an emulator trace (QEMU exec log or PC dump) offline" },
	{ "symbolize", cmd_symbolize, "name the addresses of a raw folded file" },
	{ "export", cmd_export, "write a profile for other tools (pprof, callgrind, speedscope)" },
	{ "report", cmd_report, "the top functions of a profile, self and total" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tephra COMMAND [options] [args]\n"
		   "       tephra --version\n\n"
		   "Turns profiles into correct flame graphs: reads perf.data itself, counts\n"
		   "instructions on full call paths under Valgrind, follows the call stacks of\n"
		   "RISC-V guests under QEMU.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'tephra COMMAND --help' describes a command.\n"
		   "  -h, --help     this text\n"
		   "      --version  the version, and what tephra was built against\n");
}

static void version(FILE *f)
{
	fprintf(f, "tephra %s\n", TEPHRA_VERSION_STRING);
	if (*TEPHRA_BUILT_VALGRIND)
		fprintf(f, "  tephra grind: Valgrind %s (%s tool)\n", TEPHRA_BUILT_VALGRIND,
			TEPHRA_BUILT_VALGRIND_PLATFORM);
	else
		fprintf(f, "  tephra grind: not built (no Valgrind at build time)\n");
	if (*TEPHRA_BUILT_QEMU_PLUGIN_API)
		fprintf(f, "  tephra emu:   QEMU TCG plugin API version %s\n",
			TEPHRA_BUILT_QEMU_PLUGIN_API);
	fprintf(f, "  elfutils:     %d.%d\n", _ELFUTILS_VERSION / 1000, _ELFUTILS_VERSION % 1000);
}

/* Whether ARGV (a command's arguments) asks for its help: "--help" or "-h" among the
 * leading options, before "--" or the first operand (a program's own --help is not). */
static int asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* Every command's exit: what it wrote on standard output must have reached it (a full
 * disk, a closed pipe with SIGPIPE ignored).  A command that failed already said why. */
static int check_stdout(const char *cmd, int rc)
{
	errno = 0;
	int bad = ferror(stdout), pending = __fpending(stdout) > 0;
	/* a closed standard output (>&-) the command never wrote to is no error */
	if (fclose(stdout) != 0 && (bad || pending || errno != EBADF))
		bad = 1;
	if (bad && rc == 0) {
		fprintf(stderr, "tephra %s: write error: %s\n", cmd, strerror(errno ? errno : EIO));
		return 1;
	}
	return rc;
}

/* A standard descriptor the shell closed (>&-, <&-) stays unusable: left closed, the
 * first file we open would take its number, and what the command prints would go into
 * that file (or fail as "Invalid argument").  /dev/null opened the other way round
 * fails every write (read) with EBADF, as the closed descriptor did. */
static void hold_closed_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_NOCTTY);
		if (n >= 0 && n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
}

int main(int argc, char **argv)
{
	hold_closed_std_fds();
	xalloc_heap_on_huge_pages();
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		if (argc >= 2)
			printf("\ntephra %s\n", TEPHRA_VERSION_STRING);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		version(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* getopt names argv[0] in its complaints: "tephra CMD: unrecognized option" */
		char who[32];
		snprintf(who, sizeof(who), "tephra %s", commands[i].name);
		argv[1] = who;
		int rc = commands[i].fn(argc - 1, argv + 1);
		/* Every command's help ends with the version, printed here once for all. */
		if (rc == 0 && asks_help(argc - 1, argv + 1))
			printf("\ntephra %s ('tephra --version' says what it was built against)\n",
			       TEPHRA_VERSION_STRING);
		return check_stdout(commands[i].name, rc);
	}
	fprintf(stderr, "tephra: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
