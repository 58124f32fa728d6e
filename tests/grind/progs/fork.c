/* fork.c - the child runs work(1000), the parent work(2000) after the child ended.
 * Expected: the parent's file has main;work 4002 and no 2002 line; the child's file
 * (FILE.PID) has main;work 2002 and no 4002 line. */
#include <sys/wait.h>
#include <unistd.h>
#include "work.h"

int main(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		work(1000);
		return 0;
	}
	waitpid(pid, NULL, 0);
	work(2000);
	return 0;
}
