/* fuzz_qemu_log.c - libFuzzer target: a QEMU exec log (`qemu-riscv64 -singlestep -d
 * exec,nochain` text), as `tephra trace --elf` reads it (fuzz_trace_input.h). */
#include "fuzz_trace_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_trace_input(data, size, trace_read_qemu_log);
}
