/* sleeper.c - works, sleeps a second and a half, works again: long enough for a test to
 * read a checkpoint of the profile while the guest is still running. */
#include <time.h>

__attribute__((noinline)) long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

volatile long sink;

int main(void)
{
	sink = spin(200000);
	struct timespec ts = { 1, 500000000 };
	nanosleep(&ts, 0);
	sink += spin(200000);
	return 0;
}
