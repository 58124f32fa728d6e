/* spawn.c - a process tree: the parent runs work(1000), forks; the child runs work(250)
 * and execs PROGRAM (argv[1], e.g. ./spawnee), or exits 127 when the exec fails; the
 * parent waits and runs work(2000).  Expected per process: parent main;work 2002 + 4002,
 * child before its exec main;work 502 (the fork zeroes what it inherited), then what
 * PROGRAM runs.  It prints nothing: printing a pid would make the count depend on the
 * pid's number of digits, which differs between runs. */
#include <sys/wait.h>
#include <unistd.h>
#include "work.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	work(1000);
	pid_t pid = fork();
	if (pid == 0) {
		work(250);
		execv(argv[1], argv + 1);
		_exit(127);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	work(2000);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
