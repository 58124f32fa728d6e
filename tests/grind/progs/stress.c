/* stress.c - call-heavy loops interrupted often: by a 1 ms interval timer (signals
 * arrive between any two blocks, also right after a call or a return) and, with
 * argument "threads", by a second thread running the same loops (the scheduler
 * switches threads between any two blocks).  Whatever the timing, expected:
 *   ...;a;work 2200000 (100000 x 22) and ...;b;work 4200000 (100000 x 42) per runner,
 *   where ... is main or runner, and nothing under a frame it was not called from. */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include "work.h"

static volatile long ticks;

void on_alarm(int sig) { (void)sig; ticks++; }

void a(void) { work(10); }
void b(void) { work(20); }

void loops(void)
{
	for (int i = 0; i < 100000; i++) {
		a();
		b();
	}
}

void *runner(void *arg) { loops(); return arg; }

int main(int argc, char **argv)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t t;
	int threads = argc > 1 && !strcmp(argv[1], "threads");
	if (threads)
		pthread_create(&t, NULL, runner, NULL);
	loops();
	if (threads)
		pthread_join(t, NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	return 0;
}
