/* cold.c - hot() has an unlikely branch that gcc -O2 moves to hot.cold (a separate
 * symbol in .text.unlikely); the branch runs once.  Expected, by default:
 *   main;hot;rare;work 2002, and main;hot;work 6004 (the cold branch's work(1000)
 *   2002 + the likely path's work(2000) 4002); no "hot.cold" frame.
 * With --keep-cold the cold part is entered by a jump to another symbol, so it
 * replaces hot's frame like a tail call, and the jump back replaces it again:
 *   main;hot.cold;rare;work 2002   main;hot.cold;work 2002   main;hot;work 4002 */
#include "work.h"

__attribute__((cold, noinline)) void rare(void) { work(1000); }

__attribute__((noinline)) void hot(long n)
{
	if (__builtin_expect(n == 7, 0)) {
		rare();
		work(1000);
		return;
	}
	work(n);
}

int main(void)
{
	hot(7);
	hot(2000);
	return 0;
}
