#!/usr/bin/env bash
# wrap grind: `tephra grind` runs the program transparently.
#  - stdout is the program's: `xz -c f` under grind writes the same bytes as alone;
#  - its exit status is the program's: 3, and 139 (128 + SIGSEGV) as alone;
#  - Ctrl-C (SIGINT to the whole process group, once the workload has run its 10^8
#    rounds): the counts the tool wrote are merged and drawn (at least 2 instructions a
#    round under spin_rounds, by construction), tephra says it was interrupted, exits
#    130 as the program alone would, and leaves no directory in TMPDIR;
#  - a second Ctrl-C on a real terminal (tests/wrap/ctrl_c.py; the program catches the
#    first and ends on the second), or SIGTERM to tephra alone: nothing is written, no
#    directory is left in TMPDIR, and tephra dies of the signal.
. "$TOP/tests/wrap/lib.sh"
command -v valgrind >/dev/null || skip "valgrind is not installed"
[ -f "$TOP/build/grind/lib/VERSION" ] || skip "tool not built (build/grind/lib missing)"
trap 'kill -KILL -- -${BG:-0} 2>/dev/null' EXIT

# stdout
if command -v xz >/dev/null; then
	head -c 30000 /dev/urandom | base64 >f
	xz -c f >alone.xz || fail "xz alone"
	"$TEPHRA" grind -q -o xz.folded --svg xz.svg -- xz -c f >wrapped.xz 2>xz.err || fail "grind xz: $(tail -n 2 xz.err)"
	cmp alone.xz wrapped.xz || fail "grind: stdout differs from xz -c f alone"
else
	echo "xz not installed: stdout case not run"
fi

# exit status
for p in three segv; do
	want=$(status "./$p")
	got=$(status "$TEPHRA" grind -o "$p.folded" --svg "$p.svg" -- "./$p")
	echo "$p: alone $want, under grind $got"
	[ "$got" = "$want" ] || fail "grind -- ./$p: exit status $got, the program's is $want"
done
no_temp_dirs "exit status"

# Ctrl-C as kill -INT to the process group
in_own_group ready "$TEPHRA" grind -o int.folded --svg int.svg -- ./spin ready || fail "grind ended before running"
kill -INT -- -"$BG"
wait "$BG"; rc=$?
[ "$rc" = 130 ] || fail "SIGINT: exit status $rc, want 130 (the program's)"
grep -q 'interrupted' bg.err || fail "SIGINT: not said: $(cat bg.err)"
counted=$(awk '/;spin_rounds / { s += $NF } END { printf "%.0f", s }' int.folded 2>/dev/null)
echo "SIGINT: ${counted:-no} instructions under spin_rounds"
[ -n "$counted" ] && [ "$counted" -ge 200000000 ] || fail "SIGINT: ${counted:-no} instructions under spin_rounds, want >= 2 x 10^8"
svg_whole int.svg || fail "SIGINT: int.svg is not a whole SVG"
no_temp_dirs "SIGINT"

# a second Ctrl-C on a terminal
got=$(python3 "$TOP/tests/wrap/ctrl_c.py" ready 2 tty.log -- "$TEPHRA" grind -o tty.folded --svg tty.svg -- ./spin ready count)
[ "$got" = "signal 2" ] || fail "^C twice: $got, want death by signal 2: $(cat tty.log)"
grep -qx 'int 2' ready || fail "^C twice: the program did not get two SIGINTs"
[ -e tty.folded ] || [ -e tty.svg ] && fail "^C twice: something was written"
no_temp_dirs "^C twice"

# SIGTERM to tephra alone
in_own_group ready "$TEPHRA" grind -o term.folded --svg term.svg -- ./spin ready || fail "grind ended before running"
kill -TERM "$BG"
wait "$BG"; rc=$?
[ "$rc" = 143 ] || fail "SIGTERM: exit status $rc, want 143 (died of SIGTERM)"
grep -q 'stopped by' bg.err || fail "SIGTERM: not said: $(cat bg.err)"
[ -e term.folded ] || [ -e term.svg ] && fail "SIGTERM: something was written"
no_temp_dirs "SIGTERM"
exit $((failures > 0))
