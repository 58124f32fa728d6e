/* unwind_regs.h - per-architecture facts the DWARF unwinder needs: the ELF machine,
 * and how perf's user-register numbering (the bits of attr.sample_regs_user) maps to
 * DWARF register numbers, which is what CFI talks about.
 *
 * perf numbering (arch/<arch>/include/uapi/asm/perf_regs.h):
 *   x86_64:  AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15 = bits 0..23
 *   aarch64: X0..X30 = bits 0..30, SP = 31, PC = 32
 * DWARF numbering (the psABIs):
 *   x86_64:  rax rdx rcx rbx rsi rdi rbp rsp r8..r15 = 0..15, return address = 16
 *   aarch64: x0..x30 = 0..30, sp = 31 (the pc has no DWARF number) */
#ifndef TEPHRA_UNWIND_UNWIND_REGS_H
#define TEPHRA_UNWIND_UNWIND_REGS_H

#include <stdint.h>

#include "unwind/unwinder.h"

#define UNWIND_MAX_DWARF_REGS 32

struct unwind_arch_desc {
	const char *name;
	uint16_t elf_machine;   /* EM_X86_64, EM_AARCH64 */
	unsigned perf_sp;       /* perf register number of the stack pointer */
	unsigned perf_ip;       /* ... and of the program counter */
	unsigned nr_dwarf;      /* DWARF registers 0..nr_dwarf-1 come from perf registers */
	signed char perf_of_dwarf[UNWIND_MAX_DWARF_REGS]; /* -1: not sampled by perf */
	/* The DWARF registers the psABI makes callee-saved: a frame whose CFI has no rule
	 * for one leaves it to its caller unchanged.  libdw's default rules for x86_64
	 * (elfutils 0.188) name rax where the psABI says rbx, so rbx comes out undefined
	 * (docs/unwind.md, "rbx"); the unwinder applies this mask itself. */
	uint32_t callee_saved;
};

const struct unwind_arch_desc *unwind_arch_desc(enum unwind_arch arch);

/* The value of perf register PERF_REG in a sample's register block (values stored for
 * the set bits of MASK, lowest bit first).  Returns 1 with *VALUE, 0 when MASK lacks
 * the register. */
int unwind_perf_reg(uint64_t mask, const uint64_t *regs, unsigned perf_reg, uint64_t *value);

/* Converts a sample's perf registers into DWARF registers: DWARF[i] and a bit i in
 * *DWARF_VALID for each register present.  Returns 0, or -1 when sp or ip is absent. */
int unwind_regs_to_dwarf(const struct unwind_arch_desc *a, uint64_t mask, const uint64_t *regs,
			 uint64_t dwarf[UNWIND_MAX_DWARF_REGS], uint32_t *dwarf_valid,
			 uint64_t *sp, uint64_t *ip);

#endif
