/* phases.c - two phases for tests/heatmap: spins in a() for ARGV[1] ms of CPU time,
 * then in b() for as long (default 400).  Each phase ends on its own thread CPU clock,
 * so the split does not depend on how loaded the machine is. */
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

volatile unsigned long sink;

__attribute__((noinline)) void a(double ms)
{
	double end = cpu_ms() + ms;
	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i * 3;
}

__attribute__((noinline)) void b(double ms)
{
	double end = cpu_ms() + ms;
	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i * 7;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 400;
	a(ms);
	b(ms);
	return 0;
}
