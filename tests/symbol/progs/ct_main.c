/* ct_main.c - spins a fixed amount of work in libct.so (container.test.sh), then
 * with "hold": says "spun" on stdout and stays alive until stdin ends, so that the
 * recording can end while it still runs.  Work, not time: the samples it gets do not
 * depend on the machine's load. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t ct_spin(uint64_t x);

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 100000;
	uint64_t x = 1;
	char buf[64];

	for (long i = 0; i < calls; i++)
		x = ct_spin(x);
	if (argc > 2 && !strcmp(argv[2], "hold")) {
		printf("spun %llu\n", (unsigned long long)(x & 1));
		fflush(stdout);
		while (read(0, buf, sizeof(buf)) > 0)
			;
	}
	return (int)(x & 0);
}
