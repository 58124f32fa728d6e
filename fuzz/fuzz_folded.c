/* fuzz_folded.c - libFuzzer target: folded stack text ("a;b;c 12", one or two counts)
 * read into a flame tree, then laid out and written as an SVG (to /dev/null). */
#include <stdlib.h>

#include "fuzz_common.h"
#include "render/flame_svg.h"
#include "render/flame_tree.h"
#include "render/folded_reader.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static void one(const uint8_t *data, size_t size, unsigned flags)
{
	struct folded_opts o = { .flags = flags, .col = 0, .report = &fuzz_report };
	struct folded_stats st = { 0 };
	struct flame_svg_opts so;
	struct tephra_error err;
	struct flame_tree *t = flame_tree_new(0);
	FILE *f = fuzz_stream(data, size);

	if (!f) {
		flame_tree_free(t);
		return;
	}
	if (folded_read(f, "fuzz", t, &o, &st, &err) == 0) {
		flame_tree_finish(t);
		flame_svg_opts_init(&so);
		so.diff = st.two_columns;
		flame_svg_write(devnull, "/dev/null", t, &so, &err);
	}
	fclose(f);
	flame_tree_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, 0);
	one(data, size, FOLDED_STRIP_HEX | FOLDED_ONE_COLUMN);
	fuzz_check_fds();
	return 0;
}
