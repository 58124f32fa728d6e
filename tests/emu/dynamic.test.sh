#!/usr/bin/env bash
# A dynamically linked, position-independent guest (run with -L sysroot): the plugin
# finds the executable, ld.so and libc in the guest's mappings with their load biases.
# Per function of the program, the profile equals the count of QEMU's own exec log
# lines naming that function (QEMU's symbol lookup, -singlestep: one line per
# instruction).
. "$TOP/tests/emu/lib.sh"
SYSROOT=/usr/riscv64-linux-gnu
[ -e $SYSROOT/lib/ld-linux-riscv64-lp64d.so.1 ] || skip "no RISC-V sysroot in $SYSROOT"
riscv64-linux-gnu-gcc -O2 -fPIE -pie -o wl "$GUESTS/workload.c" || fail "cannot build"
env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o wl.folded -- qemu-riscv64 -L $SYSROOT ./wl \
	>/dev/null 2>emu.err </dev/null || { cat emu.err; fail "tephra emu"; }
grep -q 'underflows 0,' emu.err || { cat emu.err; fail "underflows"; }
env -i PATH="$PATH" qemu-riscv64 -L $SYSROOT -singlestep -d exec,nochain -D wl.log ./wl \
	>/dev/null 2>&1 </dev/null
funcs='^(fib|deep|cmp_int|main|triple|tail_caller|is_even|is_odd) '
awk '/^Trace/ && NF == 5 { c[$5]++ } END { for (k in c) print k, c[k] }' wl.log |
	grep -E "$funcs" | LC_ALL=C sort >qemu.counts
awk '{ n = split($1, f, ";"); c[f[n]] += $NF } END { for (k in c) print k, c[k] }' wl.folded |
	grep -E "$funcs" | LC_ALL=C sort >ours.counts
[ "$(wc -l <qemu.counts)" = 8 ] || { cat qemu.counts; fail "QEMU's log does not name the 8 functions"; }
diff -u qemu.counts ours.counts || fail "per-function counts differ from QEMU's log"
grep -Eq ';main;fib;fib;fib [0-9]+$' wl.folded || fail "fib recursion under main"
grep -Eq ';main;(qsort|__qsort_r|[^;]*);.*cmp_int [0-9]+$' wl.folded || fail "comparator under libc's qsort"
# libc's exported functions are named, from its dynamic symbols.
grep -Eq ';main;(puts|_IO_puts)[; ]' wl.folded || fail "libc's puts not named"
echo ok
