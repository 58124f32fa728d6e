/* outlive.c - a child that outlives its parent: the parent forks and waits only until
 * the child runs (a byte on a pipe), then runs work(1000) and exits; the child waits
 * for a line on the FIFO argv[1] (written by the test once tephra grind has returned),
 * then runs work(500).  No timing: the order is fixed by the pipe and the FIFO. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "work.h"

int main(int argc, char **argv)
{
	int ready[2];
	char c = 0;
	if (argc < 2 || pipe(ready) != 0)
		return 2;
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		close(ready[1]);
		int fd = open(argv[1], O_RDONLY);
		if (fd < 0 || read(fd, &c, 1) < 0)
			_exit(4);
		work(500);
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		return 5;
	work(1000);
	return 0;
}
