/* fuzz_script_text.c - libFuzzer target: `perf script` text folded as
 * stackcollapse-perf.pl folds it (tephra fold --from-text), plain and with -F+srcline
 * lines, pid/tid roots and every frame-naming flag. */
#include "fuzz_common.h"
#include "fold/fold_table.h"
#include "perfscript/perf_script_text.h"

static void one(const uint8_t *data, size_t size, const struct fold_text_options *o)
{
	struct fold_table *t = fold_table_new();
	struct tephra_error err;
	FILE *f = fuzz_stream(data, size);

	if (f) {
		fold_perf_script_text(f, "fuzz", t, o, &err);
		fclose(f);
	}
	fold_table_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_text_stats st;
	struct fold_text_options plain = { .report = &fuzz_report, .stats = &st };
	struct fold_text_options all = {
		.frame_flags = FOLD_KERNEL | FOLD_JIT | FOLD_ADDRS,
		.root = FOLD_ROOT_TID,
		.srcline = 1,
		.report = &fuzz_report,
		.stats = &st,
	};

	one(data, size, &plain);
	one(data, size, &all);
	fuzz_check_fds();
	return 0;
}
