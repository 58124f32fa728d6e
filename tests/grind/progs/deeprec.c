/* deeprec.c - a recursion 100 calls deep runs uninstrumented (--start=off); the
 * deepest call starts instrumentation, works, and everything returns.  Expected:
 *   main;rec x101;work 2002, one line per depth 1..101 (each rec's return path), and
 *   main;work 4002 */
#include <valgrind/callgrind.h>
#include "work.h"

void rec(int depth)
{
	if (depth == 0) {
		CALLGRIND_START_INSTRUMENTATION;
		work(1000);
		return;
	}
	rec(depth - 1);
}

int main(void) { rec(100); work(2000); return 0; }
