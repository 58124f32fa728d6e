/* spin.c - a program to interrupt, for tests/wrap: spins 10^8 rounds, then writes
 * "running" to the file READY (so a test signals it only once it is certainly running
 * and has executed those rounds), then spins until a signal ends it.  With "count" as
 * its second argument it catches SIGINT instead: each one appends "int N" to READY,
 * and the second ends it (exit 0), as a program that finishes up on Ctrl-C would. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

static const char *ready;
static volatile sig_atomic_t ints;

static void on_int(int sig)
{
	(void)sig;
	int fd = open(ready, O_WRONLY | O_APPEND);
	if (++ints == 1) {
		if (fd >= 0 && write(fd, "int 1\n", 6) != 6)
			_exit(3);
	} else {
		if (fd >= 0 && write(fd, "int 2\n", 6) != 6)
			_exit(3);
		_exit(0);
	}
	if (fd >= 0)
		close(fd);
}

__attribute__((noinline)) static void spin_rounds(unsigned long n, volatile unsigned *x)
{
	for (unsigned long i = 0; i < n; i++)
		*x = *x * 3 + 1;
}

int main(int argc, char **argv)
{
	volatile unsigned x = 1;
	if (argc < 2)
		return 2;
	ready = argv[1];
	if (argc > 2 && !strcmp(argv[2], "count"))
		signal(SIGINT, on_int);
	spin_rounds(100000000UL, &x);
	FILE *f = fopen(ready, "w");
	if (!f || fputs("running\n", f) < 0 || fclose(f) != 0)
		return 2;
	for (;;)
		spin_rounds(1000000UL, &x);
}
