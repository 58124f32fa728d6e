/* guest_syms.h - the function table of a guest program: which function owns an address.
 *
 * Built from ELF function symbols (or from a list the caller gives).  Rules, in order:
 *   - a zero-size symbol strictly inside a sized function symbol (start < it < end) is a
 *     label, not a function: it is dropped (`.type x,@function` without `.size` on a
 *     loop label inside a sized function must not split it in two);
 *   - a zero-size function symbol inside no sized one is a function start (hand-written
 *     asm without `.size`): it ends where the next function symbol starts, or at the end
 *     of its section;
 *   - a symbol lying inside another (nested) owns its own range, the outer one owns the
 *     rest: the table is flattened into disjoint intervals, each owned by the innermost
 *     symbol covering it; the owner's start address is the function id;
 *   - aliases (same start) are one function named by the preferred binding:
 *     global over weak over local, then the larger size, then the first seen;
 *   - code labels (GUEST_SYM_CODE: NOTYPE symbols of executable sections, e.g. crt's
 *     load_gp) have the lowest priority: they own only addresses no function symbol
 *     covers, never end or split a function, and lose to a function symbol at the same
 *     address.  A zero-size one ends at the next symbol of either kind or at its
 *     section's end (one at its section's end is dropped).
 * Lookups are a binary search over the disjoint intervals. */
#ifndef TEPHRA_TRACE_GUEST_SYMS_H
#define TEPHRA_TRACE_GUEST_SYMS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

enum guest_binding { GUEST_LOCAL = 0, GUEST_WEAK = 1, GUEST_GLOBAL = 2 };
enum guest_sym_kind {
	GUEST_SYM_FUNC = 0, /* a function symbol (ELF FUNC, IFUNC; every C API symbol) */
	GUEST_SYM_CODE = 1, /* a NOTYPE symbol in code: a name of last resort */
};

struct guest_sym_in {
	uint64_t start;
	uint64_t size;       /* 0 = ends at the next symbol */
	uint64_t limit;      /* end of its section (bounds zero-size symbols), 0 = none */
	const char *name;
	int binding;         /* enum guest_binding */
	int kind;            /* enum guest_sym_kind */
};

struct guest_func {
	uint64_t start;      /* function id */
	uint64_t end;
	const char *name;
};

struct guest_interval {
	uint64_t lo, hi;     /* [lo, hi) */
	uint32_t func;       /* index into funcs */
};

struct guest_syms {
	struct guest_func *funcs;      /* sorted by start, one per distinct start */
	size_t nfuncs;
	struct guest_interval *ivals;  /* sorted, disjoint */
	size_t nivals;
	char *names;                   /* storage of all names */
};

/* Builds the table from IN[0..N) (copied; names copied). */
void guest_syms_build(struct guest_syms *gs, const struct guest_sym_in *in, size_t n);
void guest_syms_release(struct guest_syms *gs);

/* The function owning ADDR, or NULL. */
const struct guest_func *guest_syms_find(const struct guest_syms *gs, uint64_t addr);
/* The function whose start (id) is START, or NULL. */
const struct guest_func *guest_syms_by_start(const struct guest_syms *gs, uint64_t start);

/* cs_host.func_of compatible lookup (CTX = struct guest_syms *). */
int guest_syms_func_of(void *ctx, uint64_t addr, uint64_t *start);

#endif
