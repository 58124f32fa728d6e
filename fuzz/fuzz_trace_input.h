/* fuzz_trace_input.h - the body of the two trace-reader targets (fuzz_pc_dump,
 * fuzz_qemu_log): the input, read by READ into a tracer over the committed RISC-V guest
 * fuzz/root/guest (tests/guests/calls.S built static) as `tephra trace --elf` reads it,
 * then the folded profile written (to /dev/null) and counted; also the format guess of
 * both readers. */
#ifndef TEPHRA_FUZZ_TRACE_INPUT_H
#define TEPHRA_FUZZ_TRACE_INPUT_H

#include <stdlib.h>

#include "fuzz_common.h"
#include "trace/trace_readers.h"

typedef int (*fuzz_trace_read_fn)(struct tephra_trace *t, FILE *f, const char *name,
				  struct trace_read_stats *st, struct tephra_error *err);

static inline int fuzz_trace_input(const uint8_t *data, size_t size, fuzz_trace_read_fn read)
{
	static FILE *devnull;
	char msg[256];
	struct trace_read_stats st = { 0 };
	struct tephra_trace_counts c;
	struct tephra_error err;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	struct tephra_trace *t = tephra_trace_new_elf(FUZZ_ROOT "/guest", NULL, msg, sizeof(msg));
	if (!t)
		abort(); /* the committed guest must load */
	FILE *f = fuzz_stream(data, size);
	if (f) {
		trace_guess_format(f);
		if (read(t, f, "fuzz", &st, &err) == 0) {
			tephra_trace_write_folded(t, devnull);
			tephra_trace_counts(t, &c);
			tephra_trace_format_counts(&c, msg, sizeof(msg));
		}
		fclose(f);
	}
	tephra_trace_free(t);
	return 0;
}

#endif
