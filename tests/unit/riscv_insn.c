/* Unit test of src/riscv/riscv_insn.c.  Encodings and offsets come from GNU as /
 * objdump (riscv64-linux-gnu-as -march=rv64gc, rv32gc), i.e. from an independent
 * assembler, and the expected flow from the ISA's return-address-stack hint table. */
#include <stdio.h>

#include "riscv/riscv_insn.h"

struct rv_case {
	const char *text;
	uint32_t bits;
	int xlen;
	int len;
	int flow;
	int32_t imm; /* checked for static targets only */
};

static const struct rv_case cases[] = {
	{ "jal ra,.", 0x000000ef, 64, 4, RV_FLOW_CALL, 0 },
	{ "jal t0,.-4", 0xffdff2ef, 64, 4, RV_FLOW_CALL, -4 },
	{ "jal zero,.-8", 0xff9ff06f, 64, 4, RV_FLOW_JUMP, -8 },
	{ "jal a0,.-12", 0xff5ff56f, 64, 4, RV_FLOW_JUMP, -12 },
	{ "jalr zero,0(ra)", 0x00008067, 64, 4, RV_FLOW_RETURN, 0 },
	{ "jalr zero,0(t0)", 0x00028067, 64, 4, RV_FLOW_RETURN, 0 },
	{ "jalr ra,0(a5)", 0x000780e7, 64, 4, RV_FLOW_CALL_IND, 0 },
	{ "jalr t0,0(ra)", 0x000082e7, 64, 4, RV_FLOW_POP_PUSH, 0 },
	{ "jalr ra,0(t0)", 0x000280e7, 64, 4, RV_FLOW_POP_PUSH, 0 },
	{ "jalr ra,0(ra)", 0x000080e7, 64, 4, RV_FLOW_CALL_IND, 0 },
	{ "jalr zero,8(a5)", 0x00878067, 64, 4, RV_FLOW_JUMP_IND, 8 },
	{ "beq a0,a1,.-44", 0xfcb50ae3, 64, 4, RV_FLOW_BRANCH, -44 },
	{ "bne a0,a1,.+36", 0x02b51263, 64, 4, RV_FLOW_BRANCH, 36 },
	{ "ecall", 0x00000073, 64, 4, RV_FLOW_ECALL, 0 },
	{ "ebreak", 0x00100073, 64, 4, RV_FLOW_TRAP, 0 },
	{ "c.ebreak", 0x9002, 64, 2, RV_FLOW_TRAP, 0 },
	{ "c.j .-58", 0xb7d9, 64, 2, RV_FLOW_JUMP, -58 },
	{ "c.jr ra", 0x8082, 64, 2, RV_FLOW_RETURN, 0 },
	{ "c.jr t0", 0x8282, 64, 2, RV_FLOW_RETURN, 0 },
	{ "c.jr a5", 0x8782, 64, 2, RV_FLOW_JUMP_IND, 0 },
	{ "c.jalr a5", 0x9782, 64, 2, RV_FLOW_CALL_IND, 0 },
	{ "c.jalr t0", 0x9282, 64, 2, RV_FLOW_POP_PUSH, 0 },
	{ "c.beqz a0,.-70", 0xdd4d, 64, 2, RV_FLOW_BRANCH, -70 },
	{ "c.bnez a5,.+12", 0xe791, 64, 2, RV_FLOW_BRANCH, 12 },
	{ "c.mv a0,a1", 0x852e, 64, 2, RV_FLOW_NONE, 0 },
	{ "c.add a0,a1", 0x952e, 64, 2, RV_FLOW_NONE, 0 },
	{ "c.addiw a0,1 (rv64)", 0x2505, 64, 2, RV_FLOW_NONE, 0 },
	{ "c.nop", 0x0001, 64, 2, RV_FLOW_NONE, 0 },
	{ "c.jal . (rv32)", 0x2001, 32, 2, RV_FLOW_CALL, 0 },
	{ "c.jal .+4 (rv32)", 0x2011, 32, 2, RV_FLOW_CALL, 4 },
	{ "c.j .+2 (rv32)", 0xa009, 32, 2, RV_FLOW_JUMP, 2 },
	{ "0x2011 is c.addiw on rv64", 0x2011, 64, 2, RV_FLOW_NONE, 0 },
	{ "addi sp,sp,-16", 0xff010113, 64, 4, RV_FLOW_NONE, 0 },
	{ "48-bit encoding", 0x001f, 64, 0, RV_FLOW_TRAP, 0 },
};

/* Which instructions may trap (end a block early): encodings from GNU as. */
static const struct {
	const char *text;
	uint32_t bits;
	int trap;
} traps[] = {
	{ "ld a0,0(a1)", 0x0005b503, 1 },  { "sd a0,8(sp)", 0x00a13423, 1 },
	{ "flw fa0,0(a0)", 0x00052507, 1 }, { "amoadd.w a0,a1,(a2)", 0x00b6252f, 1 },
	{ "ecall", 0x00000073, 1 },         { "csrr a0,cycle", 0xc0002573, 1 },
	{ "c.lw a0,0(a1)", 0x4188, 1 },     { "c.sdsp ra,8(sp)", 0xe406, 1 },
	{ "c.ldsp ra,8(sp)", 0x60a2, 1 },   { "c.ebreak", 0x9002, 1 },
	{ "c.ld a0,0(a1)", 0x6188, 1 },     { "c.sd a0,8(sp)", 0xe42a, 1 },
	{ "addi sp,sp,-16", 0xff010113, 0 }, { "c.addi4spn a0,sp,8", 0x0028, 0 },
	{ "c.mv a0,a1", 0x852e, 0 },        { "c.jr ra", 0x8082, 0 },
	{ "mul a0,a1,a2", 0x02c58533, 0 },  { "jal ra,.", 0x000000ef, 0 },
};

int main(void)
{
	int bad = 0;
	for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++) {
		if (rv_may_trap(traps[i].bits) != traps[i].trap) {
			fprintf(stderr, "%s (0x%x): may_trap %d, want %d\n", traps[i].text,
				traps[i].bits, rv_may_trap(traps[i].bits), traps[i].trap);
			bad = 1;
		}
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rv_case *c = &cases[i];
		struct rv_insn in;
		int len = rv_decode(c->bits, c->xlen, &in);
		int static_target = in.flow == RV_FLOW_CALL || in.flow == RV_FLOW_JUMP ||
				    in.flow == RV_FLOW_BRANCH || in.flow == RV_FLOW_JUMP_IND;
		if (len != c->len || in.flow != c->flow || (static_target && in.imm != c->imm)) {
			fprintf(stderr, "%s (0x%x): got len %d flow %d imm %d, want %d %d %d\n",
				c->text, c->bits, len, in.flow, in.imm, c->len, c->flow, c->imm);
			bad = 1;
		}
	}
	return bad;
}
