/* cmd_trace.c - tephra trace: fold an emulator trace offline (QEMU exec log or binary
 * PC dump) with the same call-stack core as the QEMU plugin. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_files.h"
#include "commands.h"
#include "export_source.h"
#include "tephra/trace.h"
#include "trace/trace_internal.h"
#include "trace/trace_readers.h"

static const char usage_text[] =
	"usage: tephra trace --elf GUEST [options] TRACE\n"
	"\n"
	"Folds the execution trace of a RISC-V guest into call-path instruction counts\n"
	"(folded stacks), as `tephra emu` does live.  TRACE is either QEMU's own log of\n"
	"`qemu-riscv64 -singlestep -d exec,nochain -D TRACE GUEST` (instructions decoded\n"
	"from GUEST)\n"
	"or a binary dump of executed pcs (little-endian uint64, one per instruction);\n"
	"\"-\" reads standard input (a QEMU log unless --format pcs).\n"
	"\n"
	"  -e, --elf GUEST       the guest executable (symbols and instruction bytes)\n"
	"  -o, --output FILE     the output (default: standard output)\n"
	"  -f, --format FORMAT   write the output as folded (the default),\n"
	"                        " EXPORT_FORMAT_HELP ",\n"
	"                        with addresses, inline chains and source lines\n"
	"      --input-format F  TRACE is qemu-log or pcs (default: guessed from the\n"
	"                        content; --format qemu-log|pcs says it too)\n"
	"      --raw             frames as hex addresses (call sites; leaf = executing pc)\n"
	"      --nest-tail       show tail-called functions under their tail-caller\n"
	"  -h, --help            this text\n";

enum { OPT_FORMAT = 1, OPT_RAW, OPT_NEST };

/* T's profile written as FORMAT to PATH ("-": standard output).  Returns 0, or 1
 * having printed why. */
static int export_trace(struct tephra_trace *t, const char *format, const char *path)
{
	struct out_file of;
	FILE *out = cli_out_open(&of, "tephra trace", path);
	if (!out)
		return 1;
	int rc = tephra_trace_write_profile(t, format, out);
	return cli_out_close(&of, "tephra trace", !rc) ? 1 : 0;
}

int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "elf", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "input-format", required_argument, NULL, OPT_FORMAT },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "nest-tail", no_argument, NULL, OPT_NEST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *elf = NULL, *output = NULL;
	enum trace_format fmt = TRACE_FORMAT_AUTO;
	struct tephra_trace_options to = { 0, 0 };
	int c, out_format = EXPORT_FORMAT_FOLDED;
	const char *out_format_name = "folded";
	optind = 1;
	while ((c = getopt_long(argc, argv, "e:o:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': elf = optarg; break;
		case 'o': output = optarg; break;
		case 'f':
		case OPT_FORMAT:
			/* --format names the trace's kind too, as it did before the exports
			 * (the two sets of names are apart) */
			if (!strcmp(optarg, "qemu-log"))
				fmt = TRACE_FORMAT_QEMU_LOG;
			else if (!strcmp(optarg, "pcs"))
				fmt = TRACE_FORMAT_PCS;
			else if (c == 'f' && (out_format = export_format_parse(optarg, 1, NULL)) >= 0)
				out_format_name = optarg;
			else {
				fprintf(stderr, "tephra trace: %s is %sqemu-log or pcs, not '%s'\n",
					c == 'f' ? "--format" : "--input-format",
					c == 'f' ? "folded, pprof, callgrind, speedscope, " : "", optarg);
				return 2;
			}
			break;
		case OPT_RAW: to.flags |= TEPHRA_TRACE_RAW; break;
		case OPT_NEST: to.flags |= TEPHRA_TRACE_NEST_TAIL; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (!elf) {
		fprintf(stderr, "tephra trace: --elf GUEST is needed: the guest's symbols\n");
		return 2;
	}
	if (cli_check_inputs("tephra trace", argc, argv, optind, 1, 1))
		return 2;
	if (out_format != EXPORT_FORMAT_FOLDED && !output && isatty(1)) {
		fprintf(stderr, "tephra trace: --format: a profile is not written to a terminal "
			"(-o FILE)\n");
		return 2;
	}
	const char *path = argv[optind];
	FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!in) {
		fprintf(stderr, "tephra trace: %s: %m\n", path);
		return 1;
	}
	char msg[1100];
	struct tephra_trace *t = tephra_trace_new_elf(elf, &to, msg, sizeof(msg));
	if (!t) {
		fprintf(stderr, "tephra trace: %s\n", msg);
		if (in != stdin)
			fclose(in);
		return 1;
	}
	if (trace_elf(t)->sym_problem)
		fprintf(stderr, "tephra trace: %s: warning: %s; frames without a name are [unknown]\n",
			elf, trace_elf(t)->sym_problem);
	if (fmt == TRACE_FORMAT_AUTO)
		fmt = in == stdin ? TRACE_FORMAT_QEMU_LOG : trace_guess_format(in);
	struct trace_read_stats st;
	struct tephra_error err;
	const char *name = in == stdin ? "<stdin>" : path;
	int rc = fmt == TRACE_FORMAT_PCS ? trace_read_pcs(t, in, name, &st, &err)
					 : trace_read_qemu_log(t, in, name, &st, &err);
	if (in != stdin)
		fclose(in);
	if (rc != 0) {
		fprintf(stderr, "tephra trace: %s\n", err.msg);
		tephra_trace_free(t);
		return 1;
	}
	if (out_format != EXPORT_FORMAT_FOLDED) {
		rc = export_trace(t, out_format_name, output ? output : "-");
	} else {
		struct out_file of;
		FILE *out = cli_out_open(&of, "tephra trace", output ? output : "-");
		if (!out) {
			tephra_trace_free(t);
			return 1;
		}
		rc = tephra_trace_write_folded(t, out);
		if (cli_out_close(&of, "tephra trace", rc == 0) != 0)
			rc = -1;
	}
	struct tephra_trace_counts counts;
	tephra_trace_counts(t, &counts);
	char line[400];
	tephra_trace_format_counts(&counts, line, sizeof(line));
	fprintf(stderr, "tephra trace: %s\n", line);
	if (st.multi_insn_blocks)
		fprintf(stderr, "tephra trace: warning: %s has %llu multi-instruction blocks; QEMU 7.2 "
				"does not log every execution of those, so counts are low: record with "
				"-singlestep -d exec,nochain\n",
			name, (unsigned long long)st.multi_insn_blocks);
	if (st.outside_elf)
		fprintf(stderr, "tephra trace: %llu instructions outside %s's code (counted, not decoded)\n",
			(unsigned long long)st.outside_elf, elf);
	tephra_trace_free(t);
	return rc ? 1 : 0;
}
