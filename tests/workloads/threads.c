/* threads.c - a workload for the perf oracle tests: two worker threads with their own
 * names (pthread_setname_np gives each a COMM record) besides the main thread.
 * Usage: threads [MILLISECONDS of CPU time]  (default 300).  "worker 2" has a blank and digits in
 * its name, which stackcollapse-perf.pl reads as comm "worker", tid 2. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu_ms.h"


static double run_ms;

__attribute__((noinline)) static unsigned long spin_a(unsigned long x)
{
	for (int i = 0; i < 10000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long spin_b(unsigned long x)
{
	for (int i = 0; i < 10000; i++)
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x;
}

static void *worker(void *arg)
{
	int which = (int)(long)arg;
	pthread_setname_np(pthread_self(), which ? "worker 2" : "worker-a");
	double end = cpu_ms() + run_ms;
	unsigned long x = 1;
	/* the clock is read rarely: its system call's frames stay out of the profile */
	while (cpu_ms() < end)
		for (int i = 0; i < 64; i++)
			x = which ? spin_b(x) : spin_a(x);
	return (void *)(x & 1);
}

int main(int argc, char **argv)
{
	run_ms = argc > 1 ? atof(argv[1]) : 300;
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	unsigned long x = spin_a(3);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%lu\n", x & 1);
	return 0;
}
