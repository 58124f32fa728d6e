/* a2l_unit_index.h - one compile unit's functions (subprograms, inlined subroutines,
 * entry points) with their address ranges and nesting, read from its DWARF once, so
 * that the function binutils' addr2line picks for an address and the chain of
 * functions it is inlined into are found without walking the unit's DIEs again
 * (a walk from the unit root per address was most of the time on large C++ units).
 * Used by a2l.c. */
#ifndef TEPHRA_SYMBOL_A2L_UNIT_INDEX_H
#define TEPHRA_SYMBOL_A2L_UNIT_INDEX_H

#include <elfutils/libdw.h>
#include <stdint.h>

/* One function DIE that has an address range. */
struct a2l_unit_fn {
	Dwarf_Die die;
	int32_t parent;             /* the function it is nested in (index), -1: none */
	uint32_t first_child;       /* its nested functions' ranges: spans[first_child..] */
	uint32_t nr_children;       /* ... how many */
};

/* One range [lo, hi) of function FN; the ranges of the functions nested directly in
 * one function (or at the unit level) are contiguous, sorted by lo, with max_hi the
 * largest hi of the span up to this one (so a backward scan knows when to stop). */
struct a2l_unit_span {
	Dwarf_Addr lo, hi, max_hi;
	uint32_t fn;
	int32_t parent;             /* FN's parent: the group */
};

struct a2l_unit_index {
	struct a2l_unit_fn *fns;     /* in DIE order */
	uint32_t nr_fns;
	struct a2l_unit_span *spans;
	uint32_t nr_spans;
	uint32_t first_top, nr_top;  /* the unit-level functions' spans */
};

/* Reads unit CU's functions (one walk of its DIEs). */
void a2l_unit_index_build(struct a2l_unit_index *u, Dwarf_Die *cu);
void a2l_unit_index_free(struct a2l_unit_index *u);

/* The function addr2line picks for ADDR (the unit's address): of the functions whose
 * range holds it, and all of whose enclosing functions hold it too, the one with the
 * smallest range, the later DIE on a tie.  Returns its index, or -1. */
int32_t a2l_unit_index_pick(const struct a2l_unit_index *u, Dwarf_Addr addr);

#endif
