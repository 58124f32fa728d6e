/* signals.c - a guest whose handler runs three times: SIGUSR1 sent to itself (raise),
 * then a SIGSEGV from a bad store that the handler escapes with siglongjmp.  The
 * handler frames must sit on a "[signal N]" frame above the code that was interrupted,
 * and the stack must be right again afterwards (tests/emu/signals.test.sh). */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile int hits;
static sigjmp_buf escape;

__attribute__((noinline)) void on_usr1(int sig)
{
	hits += sig;
}

__attribute__((noinline)) void on_segv(int sig)
{
	hits += sig;
	siglongjmp(escape, 1);
}

__attribute__((noinline)) void send_three(void)
{
	for (int i = 0; i < 3; i++)
		raise(SIGUSR1);
}

__attribute__((noinline)) void poke(volatile int *p)
{
	*p = 1;
}

__attribute__((noinline)) int after(int x)
{
	return x + 1;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	send_three();
	if (!sigsetjmp(escape, 1))
		poke((volatile int *)16);
	printf("%d\n", after(hits));
	return hits == 3 * SIGUSR1 + SIGSEGV ? 0 : 1;
}
