/* work.h - the leaf every grind test program spends its time in.
 *
 * work(N), N >= 1, executes exactly 2N+2 instructions: mov, N times (dec, jnz), ret.
 * Written in assembly so that no compiler changes that count. */
#ifndef GRIND_TEST_WORK_H
#define GRIND_TEST_WORK_H

#ifdef __cplusplus
extern "C"
#endif
void work(long n);

__asm__(".text\n"
	".globl work\n"
	".type work,@function\n"
	"work:\n"
	"\tmov %rdi,%rcx\n"
	"1:\tdec %rcx\n"
	"\tjnz 1b\n"
	"\tret\n"
	".size work,.-work\n");

#endif
