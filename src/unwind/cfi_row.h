/* cfi_row.h - the CFI row of a pc, decoded once and kept: the fast path of the DWARF
 * unwinder.  Internal to src/unwind.
 *
 * libdwfl looks up the FDE, runs the CIE and FDE programs and evaluates a rule per
 * register for every frame of every sample.  Most rows are simple — CFA = register +
 * offset, a register saved at CFA + offset, CFA itself, undefined, unchanged — and the
 * same pcs come back sample after sample, so their decoded rows are cached per (module,
 * pc).  Rows that are not simple (DWARF expressions, signal frames) and pcs without an
 * FDE are cached as "libdwfl only": the unwinder then walks that sample with libdwfl. */
#ifndef TEPHRA_UNWIND_CFI_ROW_H
#define TEPHRA_UNWIND_CFI_ROW_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>

#include "unwind/unwind_regs.h"

enum cfi_reg_rule {
	CFI_UNDEFINED, /* the caller's value is lost */
	CFI_SAME,      /* unchanged: the caller's value is this frame's */
	CFI_AT_CFA,    /* saved in memory at CFA + off */
	CFI_VAL_CFA,   /* the value is CFA + off */
};

struct cfi_row {
	unsigned cfa_reg;
	uint64_t cfa_off;   /* added modulo 2^64 (negative offsets wrap) */
	unsigned ra_reg;    /* the return-address column */
	uint8_t rule[UNWIND_MAX_DWARF_REGS];
	uint64_t off[UNWIND_MAX_DWARF_REGS];
	uint32_t same_mask;  /* the registers whose rule is CFI_SAME */
	uint8_t nr_special;  /* the registers saved at or computed from the CFA, ... */
	uint8_t special[UNWIND_MAX_DWARF_REGS]; /* ... in register order */
};

struct cfi_row_cache {
	struct cfi_row_slot *slots; /* open addressing on (module, pc) */
	size_t nr, cap;
};

void cfi_row_cache_init(struct cfi_row_cache *c);
/* Forgets every row (the modules they were read from are going away). */
void cfi_row_cache_clear(struct cfi_row_cache *c);

/* The row for process address PC (a frame's lookup pc) in MOD, reading ARCH's registers
 * 0..nr_dwarf-1, where a callee-saved register without a rule is unchanged
 * (arch->callee_saved); NULL when that frame needs libdwfl (see above). */
const struct cfi_row *cfi_row_for(struct cfi_row_cache *c, Dwfl_Module *mod, uint64_t pc,
				  const struct unwind_arch_desc *arch);

/* Whether the CFI of MOD at PC (a lookup pc) leaves register REG undefined in the
 * caller: libdw's answer, before the psABI's callee-saved rule is applied. */
int cfi_reg_undefined_at(Dwfl_Module *mod, uint64_t pc, unsigned reg);

/* The register the CFA of MOD's row at PC is computed from (register + offset), or -1. */
int cfi_cfa_reg_at(Dwfl_Module *mod, uint64_t pc);

#endif
