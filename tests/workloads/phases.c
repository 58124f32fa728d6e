/* phases.c - two phases one after the other, each MILLISECONDS (argument, default 300)
 * of the thread's CPU time in its own function: phase_one, then phase_two.  For --time
 * tests: a slice after the switch holds only phase_two's stacks. */
#include <stdlib.h>

#include "cpu_ms.h"

static volatile unsigned sink;

__attribute__((noinline)) static void burn(double ms)
{
	double end = cpu_ms() + ms;
	unsigned x = 1;
	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 1103515245u + 12345u;
	sink = x;
}

__attribute__((noinline)) static void phase_one(double ms)
{
	burn(ms);
}

__attribute__((noinline)) static void phase_two(double ms)
{
	burn(ms);
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	phase_one(ms);
	phase_two(ms);
	return 0;
}
