/* lockwait.c - waits whose length the program measures itself, for the off-CPU tests:
 * ROUNDS times a helper thread takes a mutex, says so, holds it 10 ms and lets go,
 * while the main thread waits for it in wait_lock().  Prints the nanoseconds spent
 * inside wait_lock's pthread_mutex_lock, summed ("waited NS"), on stdout.  Many waits,
 * so a recording that samples only some scheduler switches misses some of them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 40

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int held;

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *holder(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 10 * 1000000L };
	pthread_mutex_lock(&lock);
	pthread_mutex_lock(&ready_lock);
	held = 1;
	pthread_cond_signal(&ready_cond);
	pthread_mutex_unlock(&ready_lock);
	while (nanosleep(&ts, &ts))
		;
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* the lock call, timed: the holder has the mutex for certain when it is made */
__attribute__((noinline)) static long long wait_lock(void)
{
	long long t0 = now_ns();
	pthread_mutex_lock(&lock);
	long long t = now_ns() - t0;
	pthread_mutex_unlock(&lock);
	return t;
}

int main(void)
{
	long long waited = 0;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_t t;
		held = 0;
		if (pthread_create(&t, NULL, holder, NULL))
			return 2;
		pthread_mutex_lock(&ready_lock);
		while (!held)
			pthread_cond_wait(&ready_cond, &ready_lock);
		pthread_mutex_unlock(&ready_lock);
		waited += wait_lock();
		pthread_join(t, NULL);
	}
	printf("waited %lld\n", waited);
	return 0;
}
