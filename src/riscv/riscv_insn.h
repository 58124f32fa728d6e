/* riscv_insn.h - what a RISC-V instruction does to control flow (RV32/RV64, with C).
 *
 * Freestanding (no libc) so the QEMU plugin and the offline readers share it.  Only
 * control flow is decoded; everything else is RV_FLOW_NONE with its length.
 *
 * Return-address-stack rules (unprivileged ISA, "jalr" hint table): a link register is
 * x1 (ra) or x5 (t0).
 *   jal  rd=link                          push          RV_FLOW_CALL
 *   jal  rd=other                         plain jump    RV_FLOW_JUMP
 *   jalr rd!=link, rs1!=link              plain jump    RV_FLOW_JUMP_IND
 *   jalr rd!=link, rs1=link               pop           RV_FLOW_RETURN
 *   jalr rd=link,  rs1!=link              push          RV_FLOW_CALL_IND
 *   jalr rd=link,  rs1=link, rd!=rs1      pop, push     RV_FLOW_POP_PUSH
 *   jalr rd=link,  rs1=link, rd==rs1      push          RV_FLOW_CALL_IND
 * Compressed forms: c.j = jal x0; c.jal (RV32 only) = jal x1; c.jr rs1 = jalr x0,0(rs1);
 * c.jalr rs1 = jalr x1,0(rs1); c.beqz/c.bnez are branches. */
#ifndef TEPHRA_RISCV_RISCV_INSN_H
#define TEPHRA_RISCV_RISCV_INSN_H

#include <stdint.h>

enum rv_flow {
	RV_FLOW_NONE = 0,   /* falls through to pc + len */
	RV_FLOW_BRANCH,     /* conditional: target (static) or fall-through */
	RV_FLOW_JUMP,       /* non-linking jump to a static target */
	RV_FLOW_JUMP_IND,   /* non-linking jump through a register */
	RV_FLOW_CALL,       /* linking jump to a static target (push) */
	RV_FLOW_CALL_IND,   /* linking jump through a register (push) */
	RV_FLOW_RETURN,     /* jump through a link register (pop) */
	RV_FLOW_POP_PUSH,   /* pop, then push (coroutine swap) */
	RV_FLOW_ECALL,      /* system call: may not come back to pc + 4 (signals) */
	RV_FLOW_TRAP,       /* ebreak, c.ebreak, illegal instruction: a signal follows */
};

struct rv_insn {
	uint8_t len;     /* 2 or 4 */
	uint8_t flow;    /* enum rv_flow */
	uint8_t rd, rs1; /* for jal/jalr and their compressed forms */
	int32_t imm;     /* pc-relative offset of static targets */
};

/* Decodes the instruction whose low bits are BITS (at least 16 bits valid; the high 16
 * only matter for 32-bit instructions).  XLEN is 32 or 64 (c.jal exists only on RV32).
 * Returns the length (2 or 4), or 0 for encodings longer than 32 bits (OUT->flow is
 * then RV_FLOW_TRAP). */
int rv_decode(uint32_t bits, int xlen, struct rv_insn *out);

/* Whether the instruction may trap in user mode and so end its block early: memory
 * accesses (loads, stores, atomics, their compressed forms), SYSTEM instructions (ecall,
 * ebreak, CSR accesses) and encodings longer than 32 bits or reserved.  Arithmetic,
 * floating point and control flow never trap on RISC-V. */
int rv_may_trap(uint32_t bits);

/* Length of the instruction starting with the 16-bit parcel LOW (2 or 4; 0 if longer). */
static inline int rv_insn_len(uint16_t low)
{
	if ((low & 3) != 3)
		return 2;
	if ((low & 0x1c) != 0x1c)
		return 4;
	return 0;
}

static inline int rv_is_link(unsigned reg) { return reg == 1 || reg == 5; }

#endif
