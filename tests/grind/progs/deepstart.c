/* deepstart.c - "deepstart N R": a recursion N calls deep (rec(N) down to rec(0)) runs
 * uninstrumented; rec(0) calls bottom(), which starts instrumentation and works; then
 * rec(0) .. rec(R-1) return and rec(R) ends the process with _exit, so the folded
 * file stays small (every depth that returns has its own line, as long as the stack
 * is deep).  rec's frame is 32 bytes (the request's argument block is in bottom's),
 * so 100,000 calls fit Valgrind's 8 MB main stack.
 * Expected: main, N+1 x rec, bottom;work 2002; every stack rooted at main. */
#include <stdlib.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "work.h"

static long exit_depth;

void bottom(void)
{
	CALLGRIND_START_INSTRUMENTATION;
	work(1000);
}

void rec(long depth)
{
	if (depth == 0) {
		bottom();
		return;
	}
	rec(depth - 1);
	if (depth == exit_depth)
		_exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	exit_depth = atol(argv[2]);
	rec(atol(argv[1]));
	work(2000);
	return 0;
}
