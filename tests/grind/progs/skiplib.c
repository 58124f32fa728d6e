/* skiplib.c - libskip.so: lib_outer runs its own work, then calls back into the
 * program; lib_start starts instrumentation from inside the library. */
#include <valgrind/callgrind.h>
#include "work.h"

void lib_inner(long n) { work(n); }
void lib_outer(void (*cb)(void)) { lib_inner(1000); cb(); }
void lib_start(void (*cb)(void)) { CALLGRIND_START_INSTRUMENTATION; lib_inner(3000); cb(); }
