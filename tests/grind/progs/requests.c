/* requests.c - client requests while running.  Expected in FILE.1 (the dump):
 *   main;work 4002 only among work lines (a()'s work was zeroed, work(1000) ran with
 *   collection off);
 * in FILE: main;work 6002 (after the dump; work(4000) runs after the stop), and the
 * comparator called by qsort twice, 4004: a skip request applies to the whole profile
 * as --skip-obj does, so libc's frames vanish from both calls: main;cmp;work 4004 */
#include <stdlib.h>
#include <valgrind/callgrind.h>
#include <tephra/grind.h>
#include "work.h"

void a(void) { work(500); }

int cmp(const void *x, const void *y)
{
	work(1000);
	return *(const int *)x - *(const int *)y;
}

int main(void)
{
	int v[2] = { 2, 1 };
	a();
	CALLGRIND_ZERO_STATS;
	CALLGRIND_TOGGLE_COLLECT;
	work(1000);
	CALLGRIND_TOGGLE_COLLECT;
	work(2000);
	CALLGRIND_DUMP_STATS;
	work(3000);
	qsort(v, 2, sizeof(int), cmp);
	TEPHRA_GRIND_SKIP_OBJ("libc.so*");
	qsort(v, 2, sizeof(int), cmp);
	TEPHRA_GRIND_STOP();
	work(4000);
	return 0;
}
