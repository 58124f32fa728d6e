# installed_checks.sh - what every test of an installed tephra runs (sourced by
# install.test.sh, deb.test.sh, record.test.sh and installed-package.sh; the caller
# defines fail and TOP and is in a scratch directory).  T is the installed tephra, WHAT
# names it in messages.

# installed_record T WHAT: tephra record of a program that spends its CPU time in burn():
# perf.data, a flame.svg naming burn, and tephra fold with burn on main's path.
installed_record() {
	local T=$1 what=$2
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
	"$T" record -- ./burn >record.out 2>&1 || { cat record.out; fail "$what tephra record"; }
	[ -s perf.data ] || fail "$what: no perf.data"
	grep -q '<svg' flame.svg && grep -q 'burn' flame.svg || fail "$what: flame.svg does not show burn"
	"$T" fold perf.data >burn.folded 2>fold.err || { cat fold.err; fail "$what tephra fold"; }
	grep -q '^burn;.*main;burn [0-9]*$' burn.folded || { head burn.folded; fail "$what: no main;burn stack"; }
}

# installed_grind_emu T WHAT: tephra grind and tephra emu with the installed tool and
# plugin, on the programs whose profiles are worked out by hand
# (tests/grind/progs/calls.c, tests/guests/calls.S).
installed_grind_emu() {
	local T=$1 what=$2
	gcc -O1 -g -fno-inline -fno-optimize-sibling-calls -fno-omit-frame-pointer \
		-o calls "$TOP/tests/grind/progs/calls.c" || fail "cannot build the grind program"
	"$T" grind --no-svg -o calls.folded ./calls 2>grind.err || { cat grind.err; fail "$what tephra grind"; }
	grep -qxF "calls;main;b;work 4002" calls.folded ||
		{ cat calls.folded; fail "$what grind: calls;main;b;work 4002 missing"; }
	riscv64-linux-gnu-gcc -static -g -nostdlib -march=rv64gc -mabi=lp64d -o guest \
		"$TOP/tests/guests/calls.S" || fail "cannot build the RISC-V guest"
	"$T" emu -o guest.folded -- ./guest 2>emu.err || { cat emu.err; fail "$what tephra emu"; }
	grep -qxF "_start;main;rec;rec;rec 7" guest.folded || { cat guest.folded; fail "$what emu profile"; }
	[ -s guest.svg ] || fail "$what emu wrote no SVG"
}
