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

/* tephra_trace_thread, refusing (-1) a new thread once MAX_THREADS exist: each thread
 * costs a few KiB and more as it runs, so a reader of untrusted input bounds how many
 * it creates. */
int trace_select_thread(struct tephra_trace *t, uint64_t tid, size_t max_threads);

/* Arrivals, over all threads, where the previous instruction cannot lead (taken as
 * signal deliveries).  Real traces have a few; a trace of another program has them
 * everywhere, each pushing frames. */
uint64_t trace_async_entries(const struct tephra_trace *t);

/* tephra_trace_each_folded with raw frames (hex addresses) whatever T's flags: what the
 * export (trace/trace_export.h) reads. */
int trace_each_raw_folded(const struct tephra_trace *t, tephra_folded_fn fn, void *ctx);

#endif
