/* thunkstart.c - main calls target() through a thunk written at run time into an
 * anonymous executable mapping; the thunk keeps no frame pointer (sub $8,%rsp;
 * call *%rdi; add $8,%rsp; ret) and has no CFI, and target() starts instrumentation.
 * Valgrind's unwinder cannot step over the thunk: it follows %rbp, which holds
 * main's frame pointer (main's caller came next: the stack seemed to start below
 * main) or garbage without frame pointers (the unwind stopped at the thunk).
 * Expected, with and without frame pointers:
 *   main;[unknown];target;work 2002   main;work 4002   no underflow */
#include <string.h>
#include <sys/mman.h>
#include <valgrind/callgrind.h>
#include "work.h"

void target(void)
{
	CALLGRIND_START_INSTRUMENTATION;
	work(1000);
}

int main(void)
{
	static const unsigned char code[] = {
		0x48, 0x83, 0xec, 0x08, /* sub $8,%rsp */
		0xff, 0xd7,             /* call *%rdi */
		0x48, 0x83, 0xc4, 0x08, /* add $8,%rsp */
		0xc3,                   /* ret */
	};
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, code, sizeof(code));
	((void (*)(void (*)(void)))mem)(target);
	work(2000);
	return 0;
}
