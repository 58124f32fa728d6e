/* trace_internal.h - what the offline readers (cli/cmd_trace.c) use of the C API beyond
 * include/tephra/trace.h. */
#ifndef TEPHRA_TRACE_TRACE_INTERNAL_H
#define TEPHRA_TRACE_TRACE_INTERNAL_H

#include "tephra/trace.h"
#include "trace/guest_elf.h"

/* One executed instruction at PC whose encoding is read from the tracer's ELF (made by
 * tephra_trace_new_elf).  Returns the instruction length, or 0 when PC lies outside the
 * ELF's executable segments (then counted as one instruction of unknown code that may go
 * anywhere). */
unsigned trace_step_pc(struct tephra_trace *t, uint64_t pc);

/* The ELF of a tracer made by tephra_trace_new_elf (NULL otherwise). */
const struct guest_elf *trace_elf(const struct tephra_trace *t);

#endif
