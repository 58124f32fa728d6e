/* fuzz_pc_dump.c - libFuzzer target: a pc dump (one little-endian uint64 pc per executed
 * instruction), as `tephra trace --elf` reads it (fuzz_trace_input.h). */
#include "fuzz_trace_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_trace_input(data, size, trace_read_pcs);
}
