/* pingpong.c - two threads hand a byte back and forth over two pipes ROUNDS times
 * (argument, default 100000): each round blocks each thread once, two scheduler
 * switch-outs in state S.  The off-CPU benchmark's switch generator. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;

__attribute__((noinline)) static void *ponger(void *arg)
{
	char c;
	(void)arg;
	for (long i = 0; i < rounds; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			exit(2);
	return NULL;
}

__attribute__((noinline)) static void pinger(void)
{
	char c = 'x';
	for (long i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			exit(2);
}

int main(int argc, char **argv)
{
	pthread_t t;
	rounds = argc > 1 ? atol(argv[1]) : 100000;
	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, ponger, NULL))
		return 2;
	pinger();
	pthread_join(t, NULL);
	return 0;
}
