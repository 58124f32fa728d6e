/* fuzz_perf_pipeline.c - libFuzzer target: the whole fold and script pipeline on a
 * perf.data input: reader, machine model, DWARF unwinding of the recorded registers and
 * stack bytes, symbol lookup, naming, the stack-quality block, perf-script text.
 *
 * Fast configuration (thousands of runs a second, not tens): symbols come from fuzz/root
 * only, as perf --symfs would look there: a tiny committed kallsyms instead of
 * /proc/kallsyms, and for user objects the tiny committed program fuzz/root/tmp/
 * tephra-fuzz/prog the seed recordings sampled (anything else the input names is absent,
 * so only the input's own records are read).  An input goes through one of three
 * passes, chosen by its size modulo 3 so that each run pays for one session: the fold
 * with true names, the fold with --compat, every naming flag, inline chains and source
 * lines, or the script writer (default fields, source lines, tracepoint text). */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "fold/fold_table.h"
#include "perffold/perf_fold.h"
#include "perfscript/script_render.h"

static struct symbol_options symbols = {
	.root_dir = FUZZ_ROOT,
	.kallsyms = FUZZ_ROOT "/kallsyms",
	.debug_dir = "/usr/lib/debug",
};
static FILE *devnull;
static int devnull_fd;

/* The committed fp seed must fold with these options: a configuration the library
 * refuses (as --buildid-dir under --symfs came to be) made every input fail at once,
 * and the target fuzzed nothing while its runs still counted. */
static void check_configuration(void)
{
	struct perf_fold_options o = { .symbols = &symbols, .report = &fuzz_report };
	struct fold_table *t = fold_table_new();
	struct tephra_error err = { { 0 } };

	if (perf_fold_file(FUZZ_ROOT "/../corpus/perf_pipeline/fp", &o, t, &err) ||
	    fold_table_nr_stacks(t) == 0) {
		fprintf(stderr, "fuzz_perf_pipeline: the fp seed does not fold: %s\n", err.msg);
		abort();
	}
	fold_table_free(t);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	/* libdwfl must not ask a debuginfod server for the input's build-ids */
	unsetenv("DEBUGINFOD_URLS");
	/* The fold's helper threads (object worker, kallsyms) start per input: with the
	 * default 8 MB stack ASan clears a megabyte of shadow at each thread's exit, most
	 * of a run's time.  Their work needs far less. */
	pthread_attr_t attr;

	if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, 1u << 20) != 0 ||
	    pthread_setattr_default_np(&attr) != 0)
		abort();
	pthread_attr_destroy(&attr);
	devnull = fopen("/dev/null", "w");
	devnull_fd = open("/dev/null", O_WRONLY);
	if (!devnull || devnull_fd < 0)
		abort();
	check_configuration();
	return 0;
}

static void fold(const char *path, int compat)
{
	struct perf_fold_options o = {
		.weight = compat ? PERF_FOLD_WEIGHT_PERIOD : PERF_FOLD_WEIGHT_SAMPLES,
		.compat = compat,
		.name_flags = compat ? FOLD_KERNEL | FOLD_JIT | FOLD_ADDRS | FOLD_INLINED : 0,
		.srcline = compat,
		.symbols = &symbols,
		.report = &fuzz_report,
		.quality = devnull,
		.quality_who = "fuzz",
	};
	struct perf_fold_info info;
	struct fold_table *t = fold_table_new();
	struct tephra_error err;

	o.info = &info;
	perf_fold_file(path, &o, t, &err);
	fold_table_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script_options so = {
		.fields_add = SCRIPT_SRCLINE | SCRIPT_TRACE,
		.symbols = &symbols,
		.report = &fuzz_report,
		.quality = devnull,
		.quality_who = "fuzz",
	};
	struct tephra_error err;
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	switch (size % 3) {
	case 0: fold(path, 0); break;
	case 1: fold(path, 1); break;
	default: script_render_file(path, &so, devnull_fd, &err); break;
	}
	close(fd);
	fuzz_check_fds();
	return 0;
}
