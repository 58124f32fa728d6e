/* riscv_insn.c - control-flow classification of RISC-V instructions (see header). */
#include "riscv/riscv_insn.h"

static int32_t sext(uint32_t v, int bits)
{
	uint32_t m = 1u << (bits - 1);
	return (int32_t)((v ^ m) - m);
}

static uint32_t bit(uint32_t v, int i)
{
	return (v >> i) & 1u;
}

/* jalr's row of the return-address-stack hint table. */
static uint8_t jalr_flow(unsigned rd, unsigned rs1)
{
	int rdl = rv_is_link(rd), rsl = rv_is_link(rs1);
	if (!rdl)
		return rsl ? RV_FLOW_RETURN : RV_FLOW_JUMP_IND;
	if (rsl && rd != rs1)
		return RV_FLOW_POP_PUSH;
	return RV_FLOW_CALL_IND;
}

static void decode32(uint32_t b, struct rv_insn *o)
{
	unsigned opcode = b & 0x7f, rd = (b >> 7) & 31, funct3 = (b >> 12) & 7,
		 rs1 = (b >> 15) & 31;
	switch (opcode) {
	case 0x6f: { /* jal */
		uint32_t imm = (bit(b, 31) << 20) | (((b >> 21) & 0x3ff) << 1) |
			       (bit(b, 20) << 11) | (((b >> 12) & 0xff) << 12);
		o->imm = sext(imm, 21);
		o->rd = (uint8_t)rd;
		o->flow = rv_is_link(rd) ? RV_FLOW_CALL : RV_FLOW_JUMP;
		break;
	}
	case 0x67: /* jalr */
		if (funct3 != 0) {
			o->flow = RV_FLOW_TRAP;
			break;
		}
		o->rd = (uint8_t)rd;
		o->rs1 = (uint8_t)rs1;
		o->imm = sext(b >> 20, 12);
		o->flow = jalr_flow(rd, rs1);
		break;
	case 0x63: { /* beq..bgeu */
		uint32_t imm = (bit(b, 31) << 12) | (((b >> 25) & 0x3f) << 5) |
			       (((b >> 8) & 0xf) << 1) | (bit(b, 7) << 11);
		o->imm = sext(imm, 13);
		o->flow = (funct3 == 2 || funct3 == 3) ? RV_FLOW_TRAP : RV_FLOW_BRANCH;
		break;
	}
	case 0x73: /* SYSTEM */
		if (b == 0x00000073)
			o->flow = RV_FLOW_ECALL;
		else if (b == 0x00100073)
			o->flow = RV_FLOW_TRAP;
		break;
	default:
		break;
	}
}

/* CJ-format offset: imm[11|4|9:8|10|6|7|3:1|5] in bits 12..2. */
static int32_t cj_imm(uint32_t b)
{
	uint32_t imm = (bit(b, 12) << 11) | (bit(b, 11) << 4) | (((b >> 9) & 3) << 8) |
		       (bit(b, 8) << 10) | (bit(b, 7) << 6) | (bit(b, 6) << 7) |
		       (((b >> 3) & 7) << 1) | (bit(b, 2) << 5);
	return sext(imm, 12);
}

/* CB-format branch offset: imm[8|4:3] in 12..10, imm[7:6|2:1|5] in 6..2. */
static int32_t cb_imm(uint32_t b)
{
	uint32_t imm = (bit(b, 12) << 8) | (((b >> 10) & 3) << 3) | (((b >> 5) & 3) << 6) |
		       (((b >> 3) & 3) << 1) | (bit(b, 2) << 5);
	return sext(imm, 9);
}

static void decode16(uint32_t b, int xlen, struct rv_insn *o)
{
	unsigned quadrant = b & 3, funct3 = (b >> 13) & 7;
	if ((b & 0xffff) == 0) { /* defined illegal */
		o->flow = RV_FLOW_TRAP;
		return;
	}
	if (quadrant == 1) {
		if (funct3 == 5 || (funct3 == 1 && xlen == 32)) { /* c.j / c.jal */
			o->imm = cj_imm(b);
			o->rd = funct3 == 1 ? 1 : 0;
			o->flow = funct3 == 1 ? RV_FLOW_CALL : RV_FLOW_JUMP;
		} else if (funct3 == 6 || funct3 == 7) { /* c.beqz / c.bnez */
			o->imm = cb_imm(b);
			o->flow = RV_FLOW_BRANCH;
		}
		return;
	}
	if (quadrant == 2 && funct3 == 4) {
		unsigned rs1 = (b >> 7) & 31, rs2 = (b >> 2) & 31, b12 = bit(b, 12);
		if (rs2 != 0 || rs1 == 0) {
			if (b12 && rs1 == 0 && rs2 == 0)
				o->flow = RV_FLOW_TRAP; /* c.ebreak */
			return; /* c.mv, c.add (or reserved c.jr x0) */
		}
		o->rs1 = (uint8_t)rs1;
		o->rd = b12 ? 1 : 0; /* c.jalr links through x1, c.jr does not link */
		o->flow = jalr_flow(o->rd, rs1);
	}
}

int rv_decode(uint32_t bits, int xlen, struct rv_insn *out)
{
	out->flow = RV_FLOW_NONE;
	out->rd = out->rs1 = 0;
	out->imm = 0;
	int len = rv_insn_len((uint16_t)bits);
	out->len = (uint8_t)len;
	if (len == 2)
		decode16(bits & 0xffff, xlen, out);
	else if (len == 4)
		decode32(bits, out);
	else
		out->flow = RV_FLOW_TRAP;
	return len;
}

int rv_may_trap(uint32_t bits)
{
	int len = rv_insn_len((uint16_t)bits);
	if (len == 2) {
		unsigned quadrant = bits & 3, funct3 = (bits >> 13) & 7;
		if ((bits & 0xffff) == 0)
			return 1; /* defined illegal */
		if (quadrant == 0)
			return funct3 != 0; /* all but c.addi4spn access memory (or are reserved) */
		if (quadrant == 2)
			return funct3 == 1 || funct3 == 2 || funct3 == 3 || funct3 >= 5 ||
			       (funct3 == 4 && (bits & 0xffff) == 0x9002); /* c.ebreak */
		return 0;
	}
	if (len != 4)
		return 1;
	switch (bits & 0x7f) {
	case 0x03: case 0x07: /* loads */
	case 0x23: case 0x27: /* stores */
	case 0x2f:            /* atomics */
	case 0x73:            /* SYSTEM */
		return 1;
	default:
		return 0;
	}
}
