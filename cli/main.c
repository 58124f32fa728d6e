/* main.c - the tephra command: dispatches to one subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	int (**fn)(int, char **);
	const char *help;
};

/* Pointers to the (weak) functions: NULL when a command is not built in. */
static int (*p_script)(int, char **) = cmd_script;
static int (*p_fold)(int, char **) = cmd_fold;
static int (*p_stat)(int, char **) = cmd_stat;
static int (*p_record)(int, char **) = cmd_record;
static int (*p_flamegraph)(int, char **) = cmd_flamegraph;
static int (*p_diff)(int, char **) = cmd_diff;
static int (*p_grind)(int, char **) = cmd_grind;
static int (*p_emu)(int, char **) = cmd_emu;
static int (*p_trace)(int, char **) = cmd_trace;
static int (*p_symbolize)(int, char **) = cmd_symbolize;

static const struct command commands[] = {
	{ "script", &p_script, "print perf.data samples as `perf script` does" },
	{ "fold", &p_fold, "fold perf.data samples into folded stacks" },
	{ "stat", &p_stat, "report on a perf.data file and the quality of its stacks" },
	{ "record", &p_record, "run perf record on a command and write a flame graph" },
	{ "flamegraph", &p_flamegraph, "render perf.data or folded stacks as an SVG flame graph" },
	{ "diff", &p_diff, "render a differential flame graph of two profiles" },
	{ "grind", &p_grind, "count instructions per call path under Valgrind" },
	{ "emu", &p_emu, "profile a RISC-V guest under qemu-riscv64" },
	{ "trace", &p_trace, "fold an emulator trace (QEMU exec log or PC dump) offline" },
	{ "symbolize", &p_symbolize, "name the addresses of a raw folded file" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tephra COMMAND [options] [args]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (*commands[i].fn)
			fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'tephra COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name) && *commands[i].fn)
			return (*commands[i].fn)(argc - 1, argv + 1);
	fprintf(stderr, "tephra: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
