/* untouched_stack.c [ITERATIONS] - spins with its stack pointer on a page that was never
 * touched, so that the kernel can copy none of the user stack into a sample
 * (perf_event's copy does not fault pages in): every `--call-graph dwarf` sample
 * taken there has a stack dump of 0 bytes and no frame can be unwound.  Then it
 * spins as long in ordinary code, whose samples unwind to main. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/* spin_on_untouched_stack(stack_top, iterations): switches rsp to STACK_TOP, counts
 * down without touching memory, switches back. */
void spin_on_untouched_stack(void *stack_top, unsigned long iterations);
__asm__(".text\n"
	".globl spin_on_untouched_stack\n"
	".type spin_on_untouched_stack, @function\n"
	"spin_on_untouched_stack:\n"
	"	mov %rsp, %rax\n"
	"	mov %rdi, %rsp\n"
	"1:	dec %rsi\n"
	"	jnz 1b\n"
	"	mov %rax, %rsp\n"
	"	ret\n"
	".size spin_on_untouched_stack, . - spin_on_untouched_stack\n");

static __attribute__((noinline)) unsigned long spin_on_own_stack(unsigned long iterations)
{
	volatile unsigned long n = iterations;
	while (n)
		n = n - 1;
	return n;
}

int main(int argc, char **argv)
{
	unsigned long iterations = argc > 1 ? strtoul(argv[1], NULL, 0) : 300000000UL;
	size_t size = 1 << 20;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (stack == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* mid-region: the pages above sp, which the kernel would copy, are untouched too */
	spin_on_untouched_stack(stack + size / 2, iterations ? iterations : 1);
	return (int)spin_on_own_stack(iterations / 4);
}
