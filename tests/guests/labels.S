/* labels.S - symbols that are not function boundaries (tests/emu/labels.test.sh).
 * Every executed instruction can be counted by hand:
 *
 *   _start 6                            jal x3, li, li, ecall
 *   _start;code_label 3                 a NOTYPE symbol outside every function symbol
 *                                       (like crt's load_gp): named by it
 *   _start;loopy 302                    li; 100 x (addi, addi, bnez); ret.  loopy_fnlabel
 *                                       is `.type @function` without `.size` inside the
 *                                       sized loopy: a label, so no tail calls
 *   _start;unsized_a 6                  hand-written asm without .size: a function up to
 *   _start;unsized_a;unsized_b 11       the next function symbol; unsized_b: li;
 *                                       3 x (addi, nop, bnez); ret.  The NOTYPE
 *                                       unsized_b_mid inside it does not split it
 * Total 328.  Counters: calls 4, returns 4, tail calls 0. */
	.option norvc
	.text

	.globl _start
	.type _start, @function
_start:
	jal ra, code_label
	jal ra, loopy
	jal ra, unsized_a
	li a0, 0
	li a7, 93
	ecall
	.size _start, .-_start

/* NOTYPE (no .type), covered by no function symbol. */
code_label:
	li t3, 1
	addi t3, t3, 1
	ret

	.globl loopy
	.type loopy, @function
loopy:
	li t0, 100
1:	addi t0, t0, -1
	.globl loopy_fnlabel
	.type loopy_fnlabel, @function
loopy_fnlabel:
	addi t1, t1, 1
loopy_notype:
	bnez t0, 1b
	ret
	.size loopy, .-loopy

	.globl unsized_a
	.type unsized_a, @function
unsized_a:
	addi sp, sp, -16
	sd ra, 8(sp)
	jal ra, unsized_b
	ld ra, 8(sp)
	addi sp, sp, 16
	ret

	.globl unsized_b
	.type unsized_b, @function
unsized_b:
	li t2, 3
2:	addi t2, t2, -1
	.globl unsized_b_mid
unsized_b_mid:
	nop
	bnez t2, 2b
	ret
