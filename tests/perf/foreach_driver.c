/* foreach_driver.c - prints what perf_foreach_stack() hands its callback, one line per
 * sample: "TIME root;...;leaf WEIGHT".  Built and run by library-api.test.sh. */
#include <inttypes.h>
#include <stdio.h>

#include "perffold/perf_fold.h"

static void print_stack(void *arg, uint64_t time, const char *const *frames, size_t n,
			uint64_t weight)
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
	if (perf_foreach_stack(argv[1], &o, print_stack, stdout, &err)) {
		fprintf(stderr, "foreach_driver: %s\n", err.msg);
		return 1;
	}
	return 0;
}
