/* inline.c - outer() has two always_inline functions inlined into it: inl() calls
 * work(1000), spin() loops by itself.  Expected with --inline:
 *   main;outer;inl_[i];work 2002   main;outer;spin_[i] N (N > 0)
 * and without: main;outer;work 2002, no "_[i]" frame; the same total either way. */
#include "work.h"

static inline __attribute__((always_inline)) void inl(long n) { work(n); }

static inline __attribute__((always_inline)) long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

volatile long sink;

void outer(void)
{
	inl(1000);
	sink = spin(500);
}

int main(void) { outer(); return 0; }
