/* foreach_driver.c - prints what perf_foreach_stack() hands its sink, one line per
 * sample: "TIME root;...;leaf WEIGHT".  Built and run by library-api.test.sh. */
#include <inttypes.h>
#include <stdio.h>

#include "perffold/perf_fold.h"

static void print_stack(void *arg, const char *const *frames, size_t n, uint64_t weight,
			uint64_t time)
{
	FILE *out = arg;
	fprintf(out, "%" PRIu64 " ", time);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ";" : "", frames[i]);
	fprintf(out, " %" PRIu64 "\n", weight);
}

int main(int argc, char **argv)
{
	struct perf_fold_options o = { 0 };
	struct tephra_error err;
	if (argc != 2) {
		fprintf(stderr, "usage: foreach_driver PERF.DATA\n");
		return 2;
	}
	struct stack_sink sink = { print_stack, stdout };
	if (perf_foreach_stack(argv[1], &o, &sink, &err)) {
		fprintf(stderr, "foreach_driver: %s\n", err.msg);
		return 1;
	}
	return 0;
}
