/* trace_fold.h - call tries of guest threads to folded stacks, and the libc host of the
 * callstack core.
 *
 * Naming: a function frame is its symbol name ("[unknown]" outside every symbol), a
 * signal frame is "[signal N]" ("[signal]" if the number is unknown).  Raw mode writes
 * hex addresses instead: for a caller the call site of the next frame, for the leaf the
 * executing pc (the leaf-pc pseudo-nodes), so `tephra symbolize` can expand inline
 * chains and source lines later. */
#ifndef TEPHRA_TRACE_TRACE_FOLD_H
#define TEPHRA_TRACE_TRACE_FOLD_H

#include <stdint.h>

#include "callstack/callstack.h"
#include "fold/fold_table.h"
#include "trace/guest_syms.h"

/* A cs_host over calloc/free whose function lookup is SYMS (may be NULL). */
struct cs_host trace_libc_host(const struct guest_syms *syms);

/* Names functions by their id (start address): NULL when unknown ("[unknown]"). */
struct trace_namer {
	const char *(*name)(void *ctx, uint64_t func);
	void *ctx;
};
/* A namer over one symbol table (SYMS may be NULL: everything unknown). */
struct trace_namer trace_namer_syms(const struct guest_syms *syms);

/* Adds every path of CS with weight to FT. */
void trace_fold_add(struct fold_table *ft, const struct callstack *cs,
		    const struct trace_namer *namer, int raw);

/* Counters of one or more stacks, and their text for the self-check line. */
struct trace_counts {
	uint64_t instructions, calls, returns, tail_calls, underflows, nonlocal_pops, signals;
};
void trace_counts_add(struct trace_counts *c, const struct callstack *cs);
void trace_counts_format(const struct trace_counts *c, char *buf, size_t len);

#endif
