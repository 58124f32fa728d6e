// exception.cc - a C++ exception thrown three calls deep, caught in main; then work
// from main.  Expected: main;g1;g2;g3;work 2002 and main;work 10004 (4002 in the
// handler + 6002 after it), and nothing the
// unwinder ran left on the stack afterwards.
#include "work.h"

extern "C" void g3() { work(1000); throw 42; }
extern "C" void g2() { g3(); }
extern "C" void g1() { g2(); }

int main()
{
	try {
		g1();
	} catch (int) {
		work(2000);
	}
	work(3000);
	return 0;
}
