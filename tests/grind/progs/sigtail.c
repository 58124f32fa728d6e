/* sigtail.c - a SIGUSR1 handler that ends in a jump to work(1000) (a tail call, in
 * assembly: `mov $1000,%edi; jmp work`), raised twice from main; main runs work(2000)
 * and work(3000) after the raises.  Per delivery: handler 2 instructions, work 2002,
 * and the signal trampoline's 2 (glibc's __restore_rt: mov $15,%rax; syscall), charged
 * to the handler's top frame until rt_sigreturn.  Expected (two deliveries):
 *   replace: ...;[signal 10];handler 4   ...;[signal 10];work 4008
 *   nest:    ...;[signal 10];handler 4   ...;[signal 10];handler;work 4008
 *   both:    main;work 10004, and no weight on [signal 10] itself. */
#include <signal.h>
#include <string.h>
#include "work.h"

void handler(int sig);
__asm__(".text\n.globl handler\n.type handler,@function\n"
	"handler:\n\tmov $1000,%edi\n\tjmp work\n.size handler,.-handler\n");

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	work(2000);
	raise(SIGUSR1);
	work(3000);
	return 0;
}
