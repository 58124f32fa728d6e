/* offcpu.c - a program that waits in three ways and spins once, on its main thread, for
 * the off-CPU and wall-clock tests: wait_sleep (nanosleep 200 ms), wait_pipe (read on
 * a pipe a helper writes to after 300 ms), wait_mutex (a mutex a helper holds for
 * 250 ms), then spin (500 ms of its own CPU time).  Each wait's function is its own
 * frame, so every stack says which wait it is. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cpu_ms.h"

static int pipe_fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int held;
static volatile unsigned long_sink;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts))
		;
}

__attribute__((noinline)) static void wait_sleep(void)
{
	sleep_ms(200);
}

static void *pipe_writer(void *arg)
{
	(void)arg;
	sleep_ms(300);
	if (write(pipe_fds[1], "x", 1) != 1)
		exit(2);
	return NULL;
}

__attribute__((noinline)) static void wait_pipe(void)
{
	char c;
	pthread_t t;
	if (pipe(pipe_fds) || pthread_create(&t, NULL, pipe_writer, NULL))
		exit(2);
	if (read(pipe_fds[0], &c, 1) != 1)
		exit(2);
	pthread_join(t, NULL);
}

static void *mutex_holder(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	pthread_mutex_lock(&ready_lock);
	held = 1;
	pthread_cond_signal(&ready_cond);
	pthread_mutex_unlock(&ready_lock);
	sleep_ms(250);
	pthread_mutex_unlock(&lock);
	return NULL;
}

__attribute__((noinline)) static void wait_mutex(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, mutex_holder, NULL))
		exit(2);
	pthread_mutex_lock(&ready_lock);
	while (!held)
		pthread_cond_wait(&ready_cond, &ready_lock);
	pthread_mutex_unlock(&ready_lock);
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
}

__attribute__((noinline)) static void spin(void)
{
	double end = cpu_ms() + 500;
	unsigned x = 1;
	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 1103515245u + 12345u;
	long_sink = x;
}

int main(void)
{
	wait_sleep();
	wait_pipe();
	wait_mutex();
	spin();
	return 0;
}
