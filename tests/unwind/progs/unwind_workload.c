/* unwind_workload.c - a program to record with `perf record --call-graph dwarf`: its
 * samples land in code of our own (built without frame pointers), in libc called back
 * into our code (qsort -> compare), and under a recursion deep enough that an 8 KiB
 * stack dump cannot hold it, so both complete and cut-short walks occur; and in a
 * SIGALRM handler, so walks go through the signal trampoline into interrupted code.
 *
 *   unwind_workload [ROUNDS [PROCESSES]]   (PROCESSES - 1 children forked first, so
 *                                           samples of several processes interleave) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static int compare(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	for (int i = 0; i < 40; i++)
		sink += (x ^ i) * y;
	return x < y ? -1 : x > y;
}

__attribute__((noinline)) static void sort_work(unsigned *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (unsigned)(i * 2654435761u);
	qsort(v, n, sizeof(*v), compare);
}

__attribute__((noinline)) static unsigned long deep(int depth)
{
	volatile char pad[1000];

	pad[depth % 1000] = (char)depth;
	if (depth == 0) {
		unsigned long s = 0;

		for (unsigned long i = 0; i < 200000; i++)
			s += i * i ^ (s >> 3);
		return s + pad[0];
	}
	return deep(depth - 1) + pad[depth % 1000];
}

__attribute__((noinline)) static unsigned long handler_work(void)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < 30000; i++)
		s += i ^ (s << 1);
	return s;
}

__attribute__((noinline)) static void on_alarm(int sig)
{
	sink += handler_work() + (unsigned)sig;
	__asm__ volatile("" ::: "memory"); /* not a tail call: keep this frame */
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	int procs = argc > 2 ? atoi(argv[2]) : 1;
	static unsigned v[20000];
	int child = 0;

	for (int p = 1; p < procs && !child; p++) {
		pid_t pid = fork();

		if (pid == 0)
			child = 1;
		else if (pid < 0)
			perror("fork");
	}

	struct itimerval every_3ms = { { 0, 3000 }, { 0, 3000 } };

	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &every_3ms, NULL);
	for (int r = 0; r < rounds; r++) {
		sort_work(v, sizeof(v) / sizeof(v[0]));
		sink += deep(4 + r % 16);
	}
	setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 0 } }, NULL);
	if (!child)
		while (wait(NULL) > 0)
			;
	printf("%lu\n", sink);
	return 0;
}
