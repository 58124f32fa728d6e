/* trampoline.c - main calls through a hand-made trampoline in an anonymous executable
 * mapping (mmap + bytes copied) into wrapper(), which starts instrumentation.  The
 * trampoline keeps a frame pointer so the unwinder can pass through it.  Expected:
 *   main;[unknown];wrapper;work 2002   main;work 4002   no stack rooted elsewhere */
#include <string.h>
#include <sys/mman.h>
#include <valgrind/callgrind.h>
#include "work.h"

void wrapper(void) { CALLGRIND_START_INSTRUMENTATION; work(1000); }

int main(void)
{
	/* push %rbp; mov %rsp,%rbp; call *%rdi; pop %rbp; ret */
	static const unsigned char code[] = { 0x55, 0x48, 0x89, 0xe5, 0xff, 0xd7, 0x5d, 0xc3 };
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, code, sizeof(code));
	((void (*)(void (*)(void)))mem)(wrapper);
	work(2000);
	return 0;
}
