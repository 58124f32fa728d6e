/* forkexec.c - a workload for the perf oracle tests: works, forks a child that works
 * under the inherited maps, then execs PROGRAM (maps and comm replaced), and waits.
 * Usage: forkexec PROGRAM [ARGS...] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_ms.h"


__attribute__((noinline)) static unsigned long busy(double ms)
{
	double end = cpu_ms() + ms;
	unsigned long x = 7;
	/* the clock is read rarely: its system call's frames stay out of the profile */
	while (cpu_ms() < end)
		for (int i = 0; i < 1000000; i++)
			x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

__attribute__((noinline)) static unsigned long child_before_exec(void)
{
	return busy(60);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: forkexec PROGRAM [ARGS...]\n");
		return 2;
	}
	unsigned long x = busy(60);
	pid_t pid = fork();
	if (pid == 0) {
		x = child_before_exec();
		execv(argv[1], argv + 1);
		perror("execv");
		_exit(127);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	printf("%lu\n", x & 1);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
