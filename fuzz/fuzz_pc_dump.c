/* fuzz_pc_dump.c - libFuzzer target: a pc dump (one little-endian uint64 pc per executed instruction)
 * fed to a tracer over the committed RISC-V guest fuzz/root/guest (tests/guests/calls.S
 * built static), as `tephra trace --elf` reads it; the folded profile is then written
 * (to /dev/null) and counted.  Also the format guess of both trace readers. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "trace/trace_readers.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[256];
	struct tephra_trace *t = tephra_trace_new_elf(FUZZ_ROOT "/guest", NULL, msg, sizeof(msg));
	struct trace_read_stats st = { 0 };
	struct tephra_trace_counts c;
	struct tephra_error err;
	FILE *f;

	if (!t)
		abort(); /* the committed guest must load */
	f = fuzz_stream(data, size);
	if (f) {
		trace_guess_format(f);
		if (trace_read_pcs(t, f, "fuzz", &st, &err) == 0) {
			tephra_trace_write_folded(t, devnull);
			tephra_trace_counts(t, &c);
			tephra_trace_format_counts(&c, msg, sizeof(msg));
		}
		fclose(f);
	}
	tephra_trace_free(t);
	return 0;
}
