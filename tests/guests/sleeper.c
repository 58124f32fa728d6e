/* sleeper.c - works, waits until the test says go on, works again: a test reads a
 * checkpoint of the profile while the guest is still running, by construction (the guest
 * cannot end before the test has seen one).  Usage: sleeper FIFO (it reads a line from
 * FIFO between the two halves of its work). */
#include <fcntl.h>
#include <unistd.h>

__attribute__((noinline)) long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

volatile long sink;

int main(int argc, char **argv)
{
	char c;
	int fd;

	if (argc < 2)
		return 2;
	sink = spin(200000);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 3;
	close(fd);
	sink += spin(200000);
	return 0;
}
