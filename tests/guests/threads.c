/* threads.c - two threads besides main, each summing in its own function: each guest
 * thread has its own call stack in the plugin (one per vcpu). */
#include <pthread.h>
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) long sum_to(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noinline)) void *worker_a(void *arg)
{
	(void)arg;
	sink += sum_to(20000);
	return NULL;
}

__attribute__((noinline)) void *worker_b(void *arg)
{
	(void)arg;
	sink += sum_to(30000);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker_a, NULL);
	pthread_create(&b, NULL, worker_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld\n", sink);
	return 0;
}
