/* aarch64_plt_capture.c - runs as an aarch64 PIE (under qemu-aarch64 on an x86_64 host)
 * and writes a perf-like DWARF sample (the text format of aarch64_capture.c: registers
 * in perf's aarch64 numbering, a stack copy, the file mappings) whose pc is inside the
 * PLT stub of labs(), the libc function f2 calls: main -> f1 -> f2 -> labs@plt.
 *
 * The registers are those of f2 at its `bl labs`: capture_regs() is called right before
 * it in the same asm block, so sp and every callee-saved register are the call's.  Then
 * what the `bl` does is applied by hand: x30 = the return address after the `bl`, and
 * pc = the stub (the `bl`'s target, decoded from the instruction, which the test checks
 * against objdump's `<labs@plt>`) plus OFFSET.  A PLT stub touches neither sp, x29 nor
 * x30, so this is the state at any instruction of it.
 *
 *   aarch64_plt_capture OUT OFFSET [pushed] [keep-fp]
 *
 * OFFSET is a signed byte offset from the stub (negative to reach the PLT header).
 * "pushed" gives the state after the PLT header's `stp x16, x30, [sp, #-16]!` (lazy
 * binding): sp 16 lower, x16 and x30 stored there (written as 16 extra stack bytes).
 * x29 is overwritten in the written registers so only CFI can walk past f2, unless
 * "keep-fp" (for a build with -fno-omit-frame-pointer: x29 is then f2's frame record,
 * which is what a frame-pointer fallback would lean on). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aarch64_capture_regs.h"

struct plt_call {
	uint64_t regs[NR_REGS]; /* at the bl */
	uint64_t bl_addr;       /* the `bl labs` instruction */
	uint64_t ret_addr;      /* the instruction after it */
};

static uint64_t stack_top(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t start, end, top = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2 && sp >= start && sp < end)
			top = end;
	if (f)
		fclose(f);
	return top;
}


/* The target of the `bl` at ADDR: ADDR + imm26 * 4 (A64 BL encoding 100101 imm26). */
static int bl_target(uint64_t addr, uint64_t *target)
{
	uint32_t insn;
	int64_t imm;

	memcpy(&insn, (const void *)(uintptr_t)addr, sizeof(insn));
	if ((insn >> 26) != 0x25)
		return -1;
	imm = (int64_t)(insn & 0x3ffffff);
	if (imm & 0x2000000)
		imm -= 0x4000000;
	*target = addr + (uint64_t)(imm * 4);
	return 0;
}

/* Writes the sample (called from f2, whose frame above the captured sp is unchanged). */
__attribute__((noinline)) static int write_sample(FILE *out, const struct plt_call *c,
						  int64_t offset, int pushed, int keep_fp)
{
	uint64_t regs[NR_REGS], stub, pushed_words[2], top, n;
	const volatile uint8_t *p;

	if (bl_target(c->bl_addr, &stub) != 0) {
		fprintf(stderr, "no bl at %#lx\n", (unsigned long)c->bl_addr);
		return -1;
	}
	memcpy(regs, c->regs, sizeof(regs));
	regs[30] = c->ret_addr;          /* what the bl wrote */
	regs[32] = stub + (uint64_t)offset;
	if (!keep_fp)
		regs[29] = 0x5a5a5a5a5a5a5a5aULL; /* no frame pointer to lean on */
	top = stack_top(c->regs[31]);
	n = top > c->regs[31] ? top - c->regs[31] : 0;
	if (pushed) {
		/* stp x16, x30, [sp, #-16]!: x16 at the new sp, x30 above it */
		pushed_words[0] = regs[16];
		pushed_words[1] = regs[30];
		regs[31] -= 16;
	}
	fprintf(out, "# stub %#lx bl %#lx ret %#lx\n", (unsigned long)stub,
		(unsigned long)c->bl_addr, (unsigned long)c->ret_addr);
	fprintf(out, "arch aarch64\nmask 0x1ffffffff\n");
	for (int i = 0; i < NR_REGS; i++)
		fprintf(out, "reg %#lx\n", (unsigned long)regs[i]);
	write_maps(out);
	fprintf(out, "stack %lu\n", (unsigned long)(n + (pushed ? 16 : 0)));
	if (pushed) {
		const uint8_t *w = (const uint8_t *)pushed_words;

		for (int i = 0; i < 16; i++)
			fprintf(out, "%02x", w[i]);
		fprintf(out, "\n");
	}
	p = (const volatile uint8_t *)(uintptr_t)c->regs[31];
	for (uint64_t i = 0; i < n; i++)
		fprintf(out, "%02x%s", p[i], (i + 1) % 32 ? "" : "\n");
	fprintf(out, "\n");
	return 0;
}

/* capture_regs then `bl labs` back to back; x19..x21 carry the operands across
 * capture_regs (callee-saved, so they hold the same values at both calls). */
__attribute__((noinline)) static long f2(FILE *out, int64_t offset, int pushed, int keep_fp)
{
	struct plt_call c;
	long r;

	__asm__ volatile("mov x0, %[regs]\n\t"
			 "bl capture_regs\n\t"
			 "mov x0, #-7\n"
			 "0:\tbl labs\n"
			 "1:\tmov %[r], x0\n\t"
			 "adr x9, 0b\n\t"
			 "str x9, [%[bl]]\n\t"
			 "adr x9, 1b\n\t"
			 "str x9, [%[ret]]"
			 : [r] "=&r"(r)
			 : [regs] "r"(c.regs), [bl] "r"(&c.bl_addr), [ret] "r"(&c.ret_addr)
			 : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
			   "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x30",
			   "memory", "cc");
	if (r != 7 || write_sample(out, &c, offset, pushed, keep_fp) != 0)
		return -1;
	return r;
}

__attribute__((noinline)) static long f1(FILE *out, int64_t offset, int pushed, int keep_fp)
{
	long r = f2(out, offset, pushed, keep_fp);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

int main(int argc, char **argv)
{
	FILE *out;
	long r;
	int pushed = 0, keep_fp = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: aarch64_plt_capture OUT OFFSET [pushed] [keep-fp]\n");
		return 2;
	}
	for (int i = 3; i < argc; i++) {
		pushed |= !strcmp(argv[i], "pushed");
		keep_fp |= !strcmp(argv[i], "keep-fp");
	}
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	r = f1(out, strtoll(argv[2], NULL, 0), pushed, keep_fp);
	fclose(out);
	return r == 8 ? 0 : 1;
}
