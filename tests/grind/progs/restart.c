/* restart.c - instrumentation starts and stops twice inside inner() (the second start
 * rebuilds the stack again), and a thread that was blocked in read() when it started
 * rebuilds its own stack at its first instrumented block.  Expected:
 *   main;outer;inner;work 4004 (2 x 2002; work(5000) between the stops is not counted)
 *   worker;leaf;work 6002 */
#include <pthread.h>
#include <unistd.h>
#include <tephra/grind.h>
#include "work.h"

static int fds[2];

void leaf(void) { work(3000); }

void *worker(void *arg)
{
	char c;
	if (read(fds[0], &c, 1) == 1)
		leaf();
	return arg;
}

void inner(void)
{
	TEPHRA_GRIND_START();
	TEPHRA_GRIND_START(); /* already started: nothing happens */
	work(1000);
	TEPHRA_GRIND_STOP();
}

void outer(void)
{
	inner();
	work(5000);
	inner();
}

int main(void)
{
	pthread_t t;
	if (pipe(fds) != 0)
		return 1;
	pthread_create(&t, NULL, worker, NULL);
	outer();
	TEPHRA_GRIND_START();
	if (write(fds[1], "x", 1) != 1)
		return 1;
	pthread_join(t, NULL);
	return 0;
}
