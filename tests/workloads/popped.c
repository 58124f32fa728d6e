/* popped.c - a workload for tests/quality/roots-lost (x86_64): most of its time in a
 * function whose CFI still has rbp saved in its slot after the pop, as glibc 2.36's
 * msort_with_tmp has rbx..r15 in its tail jump to memcpy.  The slot is then below sp,
 * where the kernel's copy of the stack does not reach, so a DWARF walk from there loses
 * rbp, and the caller (built with frame pointers: CFA = rbp + 16) has no CFA: the walk
 * ends there, not at a thread root.
 * Usage: popped [MILLISECONDS of CPU time]  (default 300).  Build with
 * -fno-omit-frame-pointer. */
#include <stdlib.h>

#include "cpu_ms.h"

void popped_spin(long n);
__asm__(".text\n"
	".globl popped_spin\n"
	".type popped_spin, @function\n"
	"popped_spin:\n"
	".cfi_startproc\n"
	"push %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"xor %ebp, %ebp\n"
	"pop %rbp\n"
	".cfi_def_cfa_offset 8\n" /* no .cfi_restore: rbp stays "saved at CFA - 16" */
	"1: dec %rdi\n"
	"jnz 1b\n"
	"ret\n"
	".cfi_endproc\n"
	".size popped_spin, .-popped_spin\n");

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	double end = cpu_ms() + ms;

	/* the clock is read rarely: its system call's frames stay out of the profile */
	while (cpu_ms() < end)
		for (int i = 0; i < 16; i++)
			popped_spin(100000);
	return 0;
}
