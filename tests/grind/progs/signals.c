/* signals.c - a handler runs work(1000) for SIGUSR1 raised from main, first on the
 * normal stack, then on an alternate stack (sigaltstack); main runs work(2000) after
 * each.  Expected: ...[signal 10];handler;work 4004 (both deliveries), main;work 8004,
 * and never work(2000) under a signal frame. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "work.h"

void handler(int sig) { (void)sig; work(1000); }

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	work(2000);

	stack_t ss = { .ss_sp = malloc(65536), .ss_size = 65536, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	work(2000);
	return 0;
}
