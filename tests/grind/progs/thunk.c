/* thunk.c - main calls a thunk written at run time into an anonymous executable
 * mapping (no object, no symbol, no CFI), which jumps to target(); target works and
 * calls inner().  The jump from code in no object to a function is a tail call, as
 * between two functions: target replaces the thunk's frame (callgrind, which nests,
 * shows target called from the thunk).  Counts by hand: the thunk is one instruction
 * (jmp *%rdi), work(N) 2N+2.
 *   replace: main;[unknown] 1   main;target;work 2002   main;target;inner;work 6002
 *   nest:    main;[unknown];target;work 2002   main;[unknown];target;inner;work 6002
 *   both:    main;work 4002 */
#include <string.h>
#include <sys/mman.h>
#include "work.h"

void inner(void) { work(3000); }
void target(void) { work(1000); inner(); }

int main(void)
{
	static const unsigned char code[] = { 0xff, 0xe7 }; /* jmp *%rdi */
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, code, sizeof(code));
	((void (*)(void (*)(void)))mem)(target);
	work(2000);
	return 0;
}
