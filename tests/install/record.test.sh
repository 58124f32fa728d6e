#!/usr/bin/env bash
# The installed tephra records: make install into a DESTDIR, then from a directory
# outside the source tree `tephra record` runs perf on a program that spends its time
# in burn(), and writes perf.data and a flame graph naming burn; the installed
# `tephra fold` of that perf.data has burn on main's path.
. "$TOP/tests/install/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf)"
perf record -q -N -o probe.data -- true >/dev/null 2>&1 ||
	skip "perf record is not permitted here (kernel.perf_event_paranoid?)"
rm -f probe.data

install_into "$TEST_TMP/root"
T=$TEST_TMP/root/usr/local/bin/tephra
mkdir work && cd work || exit 1
cat >burn.c <<'C'
#include "cpu_ms.h"
__attribute__((noinline)) static double burn(void)
{
	volatile double x = 0;
	double end = cpu_ms() + 300;   /* 300 ms of this thread's CPU time, whatever the load */
	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x += i * 0.5;
	return x;
}
int main(void) { return burn() < 0; }
C
gcc -O1 -g -fno-omit-frame-pointer -I"$TOP/tests/workloads" -o burn burn.c || fail "cannot build burn"
"$T" record -- ./burn >record.out 2>&1 || { cat record.out; fail "installed tephra record"; }
[ -s perf.data ] || fail "no perf.data"
grep -q '<svg' flame.svg && grep -q 'burn' flame.svg || fail "flame.svg does not show burn"
"$T" fold perf.data >burn.folded 2>fold.err || { cat fold.err; fail "installed tephra fold"; }
grep -q '^burn;.*main;burn [0-9]*$' burn.folded || { head burn.folded; fail "no main;burn stack"; }
echo ok
