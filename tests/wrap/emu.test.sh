#!/usr/bin/env bash
# wrap emu: `tephra emu` runs the guest transparently.
#  - stdout is the guest's: the same bytes as under qemu-riscv64 alone;
#  - its exit status is the guest's: 3, and 139 (128 + SIGSEGV) as under QEMU alone;
#  - Ctrl-C (SIGINT to the whole process group, once the guest has run its 10^8
#    rounds): the plugin's counts are drawn (at least 2 instructions a round under
#    spin_rounds, by construction), tephra says it was interrupted and exits 130 as QEMU
#    alone would;
#  - with -f (a temporary directory of ours), a second Ctrl-C on a real terminal
#    (tests/wrap/ctrl_c.py; the guest catches the first and ends on the second), or
#    SIGTERM to tephra alone: no export written, no directory left in TMPDIR, and
#    tephra dies of the signal.
. "$TOP/tests/wrap/lib.sh"
command -v qemu-riscv64 >/dev/null || skip "qemu-riscv64 not installed"
command -v riscv64-linux-gnu-gcc >/dev/null || skip "riscv64-linux-gnu-gcc not installed"
[ -f "$TOP/build/qemu/libtephra-qemu.so" ] || skip "the plugin is not built"
trap 'kill -KILL -- -${BG:-0} 2>/dev/null' EXIT
rv() { riscv64-linux-gnu-gcc -static -O1 -g -o "$1" "$2" || { echo "cannot build $1"; exit 1; }; }
rv rvspin "$TOP/tests/wrap/spin.c"
rv rvthree three.c
rv rvsegv segv.c
printf '#include <stdio.h>\nint main(void) { for (int i = 0; i < 20000; i++) printf("line %%d\\n", i * 7919 %% 10007); return 0; }\n' >lines.c
rv rvlines lines.c

# stdout
qemu-riscv64 ./rvlines >alone.txt || fail "rvlines alone"
"$TEPHRA" emu -o lines.folded -- ./rvlines >wrapped.txt 2>lines.err || fail "emu rvlines: $(tail -n 2 lines.err)"
[ -s alone.txt ] && cmp alone.txt wrapped.txt || fail "emu: stdout differs from the guest's under QEMU alone"

# exit status
for p in rvthree rvsegv; do
	want=$(status qemu-riscv64 "./$p")
	got=$(status "$TEPHRA" emu -o "$p.folded" -- "./$p")
	echo "$p: under QEMU alone $want, under emu $got"
	[ "$got" = "$want" ] || fail "emu -- ./$p: exit status $got, QEMU's is $want"
done
[ "$(status qemu-riscv64 ./rvthree)" = 3 ] && [ "$(status qemu-riscv64 ./rvsegv)" = 139 ] ||
	fail "premise: rvthree 3, rvsegv 139 under QEMU"

# Ctrl-C as kill -INT to the process group
in_own_group ready "$TEPHRA" emu -o int.folded -- ./rvspin ready || fail "emu ended before running"
kill -INT -- -"$BG"
wait "$BG"; rc=$?
[ "$rc" = 130 ] || fail "SIGINT: exit status $rc, want 130 (QEMU's)"
grep -q 'interrupted' bg.err || fail "SIGINT: not said: $(cat bg.err)"
counted=$(awk '/;spin_rounds / { s += $NF } END { printf "%.0f", s }' int.folded 2>/dev/null)
echo "SIGINT: ${counted:-no} instructions under spin_rounds"
[ -n "$counted" ] && [ "$counted" -ge 200000000 ] || fail "SIGINT: ${counted:-no} instructions under spin_rounds, want >= 2 x 10^8"
svg_whole int.svg || fail "SIGINT: int.svg is not a whole SVG"
no_temp_dirs "SIGINT"

# a second Ctrl-C on a terminal, with -f
got=$(python3 "$TOP/tests/wrap/ctrl_c.py" ready 2 tty.log -- "$TEPHRA" emu -f pprof -o tty.pb.gz -- ./rvspin ready count)
[ "$got" = "signal 2" ] || fail "^C twice: $got, want death by signal 2: $(cat tty.log)"
grep -qx 'int 2' ready || fail "^C twice: the guest did not get two SIGINTs"
[ -e tty.pb.gz ] && fail "^C twice: the export was written"
no_temp_dirs "^C twice"

# SIGTERM to tephra alone, with -f
in_own_group ready "$TEPHRA" emu -f pprof -o term.pb.gz -- ./rvspin ready || fail "emu ended before running"
kill -TERM "$BG"
wait "$BG"; rc=$?
[ "$rc" = 143 ] || fail "SIGTERM: exit status $rc, want 143 (died of SIGTERM)"
grep -q 'stopped by' bg.err || fail "SIGTERM: not said: $(cat bg.err)"
[ -e term.pb.gz ] && fail "SIGTERM: the export was written"
no_temp_dirs "SIGTERM"
exit $((failures > 0))
