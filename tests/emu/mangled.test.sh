#!/usr/bin/env bash
# Mangled C++ names are demangled as perf prints them (libiberty, no parameter lists),
# live and offline; the names were worked out with c++filt's rules by hand:
# _ZN3foo3barEv = foo::bar(), _ZN5tools9calculateEii = tools::calculate(int, int).
. "$TOP/tests/emu/lib.sh"
cc_guest mangled mangled.S -nostdlib -march=rv64gc -mabi=lp64d
cat >expected <<'END'
_start 5
_start;foo::bar 2
_start;tools::calculate 3
END
"$TEPHRA" emu --no-svg -o mangled.folded -- ./mangled 2>/dev/null || fail "tephra emu"
LC_ALL=C sort mangled.folded | diff -u expected - || fail "live names"
qemu-riscv64 -singlestep -d exec,nochain -D mangled.log ./mangled
"$TEPHRA" trace --elf mangled mangled.log 2>/dev/null | LC_ALL=C sort | diff -u expected - ||
	fail "offline names"
echo ok
