/* longjmp.c - longjmp and siglongjmp from three calls deep back into main; then
 * work from main.  Expected: main;f1;f2;f3;work 4004 (2002 before each jump),
 * main;work 10004 (4002 + 6002 after them), never work(2000/3000) under f1. */
#include <setjmp.h>
#include "work.h"

static jmp_buf env;
static sigjmp_buf senv;
static int use_sig;

void f3(void) { work(1000); if (use_sig) siglongjmp(senv, 1); else longjmp(env, 1); }
void f2(void) { f3(); }
void f1(void) { f2(); }

int main(void)
{
	if (!setjmp(env))
		f1();
	work(2000);
	use_sig = 1;
	if (!sigsetjmp(senv, 1))
		f1();
	work(3000);
	return 0;
}
