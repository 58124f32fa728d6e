#include "unwind/unwind_regs.h"

#include <elf.h>
#include <string.h>

static const struct unwind_arch_desc x86_64_desc = {
	.name = "x86_64",
	.elf_machine = EM_X86_64,
	.perf_sp = 7,
	.perf_ip = 8,
	.nr_dwarf = 17,
	.perf_of_dwarf = {
		0,  /* rax <- AX */
		3,  /* rdx <- DX */
		2,  /* rcx <- CX */
		1,  /* rbx <- BX */
		4,  /* rsi <- SI */
		5,  /* rdi <- DI */
		6,  /* rbp <- BP */
		7,  /* rsp <- SP */
		16, 17, 18, 19, 20, 21, 22, 23, /* r8..r15 <- R8..R15 */
		8,  /* return-address column <- IP */
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	},
	/* rbx, rbp, r12..r15 */
	.callee_saved = 1u << 3 | 1u << 6 | 1u << 12 | 1u << 13 | 1u << 14 | 1u << 15,
};

static const struct unwind_arch_desc aarch64_desc = {
	.name = "aarch64",
	.elf_machine = EM_AARCH64,
	.perf_sp = 31,
	.perf_ip = 32,
	.nr_dwarf = 32,
	.perf_of_dwarf = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, /* x0..x30 */
		31, /* sp */
	},
	/* x19..x28, and x29 (the frame pointer) */
	.callee_saved = 0x3ffu << 19 | 1u << 29,
};

const struct unwind_arch_desc *unwind_arch_desc(enum unwind_arch arch)
{
	switch (arch) {
	case UNWIND_ARCH_X86_64:
		return &x86_64_desc;
	case UNWIND_ARCH_AARCH64:
		return &aarch64_desc;
	}
	return NULL;
}

int unwind_arch_from_name(const char *name, enum unwind_arch *arch)
{
	if (!name)
		return -1;
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64")) {
		*arch = UNWIND_ARCH_X86_64;
		return 0;
	}
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64")) {
		*arch = UNWIND_ARCH_AARCH64;
		return 0;
	}
	return -1;
}

int unwind_perf_reg(uint64_t mask, const uint64_t *regs, unsigned perf_reg, uint64_t *value)
{
	if (perf_reg >= 64 || !(mask & (1ULL << perf_reg)))
		return 0;
	/* The values are packed: the index is the number of set bits below PERF_REG. */
	*value = regs[__builtin_popcountll(mask & ((1ULL << perf_reg) - 1))];
	return 1;
}

int unwind_regs_to_dwarf(const struct unwind_arch_desc *a, uint64_t mask, const uint64_t *regs,
			 uint64_t dwarf[UNWIND_MAX_DWARF_REGS], uint32_t *dwarf_valid,
			 uint64_t *sp, uint64_t *ip)
{
	/* where each perf register sits in the packed array (-1: not recorded), in one
	 * pass over the mask rather than a bit count per register */
	int8_t slot[64];
	int8_t n = 0;
	memset(slot, -1, sizeof(slot));
	for (uint64_t m = mask; m; m &= m - 1)
		slot[__builtin_ctzll(m)] = n++;
	*dwarf_valid = 0;
	if (!regs || slot[a->perf_sp] < 0 || slot[a->perf_ip] < 0)
		return -1;
	*sp = regs[slot[a->perf_sp]];
	*ip = regs[slot[a->perf_ip]];
	for (unsigned i = 0; i < a->nr_dwarf; i++) {
		int p = a->perf_of_dwarf[i];

		if (p >= 0 && p < 64 && slot[p] >= 0) {
			dwarf[i] = regs[slot[p]];
			*dwarf_valid |= 1u << i;
		}
	}
	return 0;
}
