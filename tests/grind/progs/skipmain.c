/* skipmain.c - calls into libskip.so, which calls back cb().  With
 * --skip-obj=libskip.so the library's functions are no frames: its work is charged
 * to main, the callback shows directly under main.
 *   main;cb;work 4002   main;work 8004 (lib_inner's work(1000) 2002 + main's 6002)
 * With argument "start" (and --start=off), instrumentation starts inside lib_start:
 *   main;cb;work 4002   main;work 12004 (lib_inner's work(3000) 6002 + main's 6002) */
#include <string.h>
#include "work.h"

void lib_outer(void (*cb)(void));
void lib_start(void (*cb)(void));

void cb(void) { work(2000); }

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "start"))
		lib_start(cb);
	else
		lib_outer(cb);
	work(3000);
	return 0;
}
