/* calls.S - a RISC-V (RV64, no compressed instructions) guest whose every executed
 * instruction can be counted by hand.  Functions are straight lines except for the
 * counted branches in rec/ping/pong; tests/emu/calls.test.sh checks the instruction
 * count of each function in the disassembly, then compares the profile with:
 *
 *   _start 4                           jal main; li; li; ecall
 *   _start;main 17                     every instruction of main once
 *   _start;main;jumper 4               up to its call of deep1 (never returns there)
 *   _start;main;jumper;deep1 2
 *   _start;main;jumper;deep1;deep2 3   returns straight to main: a non-local return
 *   _start;main;leaf 12                called twice directly, once through a pointer
 *   _start;main;leaf2 3                tail-called by tailer (replaces it)
 *   _start;main;millicode 2            called through t0 (x5), returns with jr t0
 *   _start;main;ping 6                 ping/pong tail-call each other 3 times
 *   _start;main;pong 6
 *   _start;main;rec 8                  real recursion, depth 3: 8, 8, then 7
 *   _start;main;rec;rec 8
 *   _start;main;rec;rec;rec 7
 *   _start;main;tailer 2
 * Total 84 instructions.  Counters: calls 13, returns 11 (jumper and deep1 never
 * return themselves), tail calls 4, non-local pops 2 (jumper and deep1 popped beyond
 * deep2 by its return to main). */
	.option norvc
	.text

	.globl _start
	.type _start, @function
_start:
	jal ra, main
	li a0, 0
	li a7, 93
	ecall
	.size _start, .-_start

	.type main, @function
main:
	addi sp, sp, -16
	sd ra, 8(sp)
	jal ra, leaf
	jal ra, leaf
	li a0, 3
	jal ra, rec
	jal ra, tailer
	li a0, 4
	jal ra, ping
	lla t1, leaf
	jalr ra, 0(t1)
	jal t0, millicode
	jal ra, jumper
	ld ra, 8(sp)
	addi sp, sp, 16
	ret
	.size main, .-main

	.type leaf, @function
leaf:
	nop
	nop
	nop
	ret
	.size leaf, .-leaf

	.type rec, @function
rec:
	addi sp, sp, -16
	sd ra, 8(sp)
	addi a0, a0, -1
	beqz a0, 1f
	jal ra, rec
1:	ld ra, 8(sp)
	addi sp, sp, 16
	ret
	.size rec, .-rec

	.type tailer, @function
tailer:
	nop
	j leaf2
	.size tailer, .-tailer

	.type leaf2, @function
leaf2:
	nop
	nop
	ret
	.size leaf2, .-leaf2

	.type ping, @function
ping:
	addi a0, a0, -1
	beqz a0, 1f
	j pong
1:	ret
	.size ping, .-ping

	.type pong, @function
pong:
	addi a0, a0, -1
	beqz a0, 1f
	j ping
1:	ret
	.size pong, .-pong

	.type millicode, @function
millicode:
	nop
	jr t0
	.size millicode, .-millicode

	.type jumper, @function
jumper:
	addi sp, sp, -16
	sd ra, 8(sp)
	mv s1, ra
	jal ra, deep1
	ld ra, 8(sp)
	addi sp, sp, 16
	ret
	.size jumper, .-jumper

	.type deep1, @function
deep1:
	nop
	jal ra, deep2
	.size deep1, .-deep1

	.type deep2, @function
deep2:
	addi sp, sp, 16
	mv ra, s1
	ret
	.size deep2, .-deep2
