/* compressed.S - a guest made of compressed jumps, for RV32 (c.jal exists only there)
 * and RV64.  tests/emu/compressed.test.sh checks the instruction counts assumed here in
 * the disassembly, then expects exactly:
 *
 *   _start 4                  jal main (c.jal on RV32); li; li; ecall
 *   _start;main 9             every instruction of main once
 *   _start;main;f 2           c.nop; c.j g2 (a tail call)
 *   _start;main;g 6           c.li; 2 x (c.addi; c.bnez); c.jr ra   (through c.jalr)
 *   _start;main;g2 2          c.nop; c.jr ra
 */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#else
#define REG_S sw
#define REG_L lw
#endif
/* A linking call: c.jal on RV32 (the assembler does not compress jal by itself). */
#if __riscv_xlen == 64
#define CALL(f) jal ra, f
#else
#define CALL(f) c.jal f
#endif
	.option rvc
	.text

	.globl _start
	.type _start, @function
_start:
	CALL(main)
	li a0, 0
	li a7, 93
	ecall
	.size _start, .-_start

	.type main, @function
main:
	addi sp, sp, -16
	REG_S ra, 8(sp)
	CALL(f)
	lla a5, g
	c.jalr a5
	REG_L ra, 8(sp)
	addi sp, sp, 16
	c.jr ra
	.size main, .-main

	.type f, @function
f:
	c.nop
	c.j g2
	.size f, .-f

	.type g2, @function
g2:
	c.nop
	c.jr ra
	.size g2, .-g2

	.type g, @function
g:
	c.li a0, 2
1:	c.addi a0, -1
	c.bnez a0, 1b
	c.jr ra
	.size g, .-g
