/* unwind_regs.c - perf's user-register numbering to DWARF numbering, checked against
 * the two psABIs by hand: each perf register I gets the value 1000 + I, so DWARF
 * register D must hold 1000 + (the perf number of D's register). */
#include <stdio.h>

#include "unwind/unwind_regs.h"

static int failures;

#define CHECK(cond, ...)                                                                     \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "FAIL line %d: ", __LINE__);                         \
			fprintf(stderr, __VA_ARGS__);                                        \
			fputc('\n', stderr);                                                 \
			failures++;                                                          \
		}                                                                            \
	} while (0)

/* Packs 1000 + bit for every set bit of MASK, lowest first (how perf lays them out). */
static void pack(uint64_t mask, uint64_t *regs)
{
	size_t n = 0;

	for (unsigned bit = 0; bit < 64; bit++)
		if (mask & (1ULL << bit))
			regs[n++] = 1000 + bit;
}

int main(void)
{
	uint64_t regs[64], dwarf[UNWIND_MAX_DWARF_REGS], sp, ip, v;
	uint32_t valid;
	enum unwind_arch arch;
	const struct unwind_arch_desc *a;

	/* x86_64, the mask perf record uses (AX..SS, R8..R15) */
	/* DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 ra
	 * perf:  AX=0 BX=1 CX=2 DX=3 SI=4 DI=5 BP=6 SP=7 IP=8 ... R8=16..R15=23 */
	static const unsigned x86_expect[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19,
						 20, 21, 22, 23, 8 };
	a = unwind_arch_desc(UNWIND_ARCH_X86_64);
	pack(0xff0fffULL, regs);
	CHECK(unwind_regs_to_dwarf(a, 0xff0fffULL, regs, dwarf, &valid, &sp, &ip) == 0, "x86 regs");
	CHECK(sp == 1007 && ip == 1008, "x86 sp %lu ip %lu", (unsigned long)sp, (unsigned long)ip);
	for (unsigned d = 0; d < 17; d++) {
		CHECK(valid & (1u << d), "x86 DWARF %u missing", d);
		CHECK(dwarf[d] == 1000 + x86_expect[d], "x86 DWARF %u = %lu", d,
		      (unsigned long)dwarf[d]);
	}
	/* A sparse mask: only SP, IP and BX (bits 7, 8, 1) -> packed as BX, SP, IP */
	regs[0] = 11, regs[1] = 77, regs[2] = 88;
	CHECK(unwind_perf_reg(0x182, regs, 7, &v) && v == 77, "sparse SP");
	CHECK(unwind_perf_reg(0x182, regs, 1, &v) && v == 11, "sparse BX");
	CHECK(!unwind_perf_reg(0x182, regs, 0, &v), "AX is not in the mask");
	CHECK(unwind_regs_to_dwarf(a, 0x182, regs, dwarf, &valid, &sp, &ip) == 0 &&
		      valid == ((1u << 3) | (1u << 7) | (1u << 16)) && dwarf[3] == 11,
	      "sparse x86 valid %#x", valid);
	CHECK(unwind_regs_to_dwarf(a, 0x80, regs, dwarf, &valid, &sp, &ip) != 0,
	      "no IP must fail");

	/* aarch64: X0..X30 = 0..30, SP = 31, PC = 32; DWARF x0..x30 = 0..30, sp = 31 */
	a = unwind_arch_desc(UNWIND_ARCH_AARCH64);
	pack(0x1ffffffffULL, regs);
	CHECK(unwind_regs_to_dwarf(a, 0x1ffffffffULL, regs, dwarf, &valid, &sp, &ip) == 0,
	      "arm64 regs");
	CHECK(sp == 1031 && ip == 1032, "arm64 sp %lu ip %lu", (unsigned long)sp,
	      (unsigned long)ip);
	for (unsigned d = 0; d < 32; d++)
		CHECK((valid & (1u << d)) && dwarf[d] == 1000 + d, "arm64 DWARF %u", d);

	CHECK(unwind_arch_from_name("x86_64", &arch) == 0 && arch == UNWIND_ARCH_X86_64, "x86_64");
	CHECK(unwind_arch_from_name("aarch64", &arch) == 0 && arch == UNWIND_ARCH_AARCH64, "aarch64");
	CHECK(unwind_arch_from_name("riscv64", &arch) != 0, "riscv64 is not supported");
	CHECK(unwind_arch_from_name(NULL, &arch) != 0, "NULL arch");
	return failures ? 1 : 0;
}
