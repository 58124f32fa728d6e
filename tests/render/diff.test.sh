#!/usr/bin/env bash
# tephra diff: two-column folded output (as difffolded.pl prints it; values by hand),
# -n normalisation, -s hex stripping, SVG titles and colours, perf.data on one side.
set -eu
d=$TEST_TMP
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
printf '%s\n' 'main;a 10' 'main;b 10' 'main;c;0x1234 5' > "$d/before.folded"
printf '%s\n' 'main;a 20' 'main;b 5' 'main;c;0x9999 5' 'main;d 1' > "$d/after.folded"
for t in "$TEPHRA" "$TEPHRA_ASAN"; do
	"$t" diff --folded "$d/before.folded" "$d/after.folded" > "$d/out"
	printf '%s\n' 'main;a 10 20' 'main;b 10 5' 'main;c;0x1234 5 0' 'main;c;0x9999 0 5' 'main;d 0 1' |
		diff - "$d/out" || fail "diff --folded"
	# -n: before total 25 scaled to 31 (x1.24): a 12.4, b 12.4, c 6.2 -> rounded.
	"$t" diff -n -s --folded "$d/before.folded" "$d/after.folded" > "$d/out"
	printf '%s\n' 'main;a 12 20' 'main;b 12 5' 'main;c;0x... 6 5' 'main;d 0 1' |
		diff - "$d/out" || fail "diff -n -s --folded"
done
# SVG: widths from "after" (31 samples, 38.06 px each); a grew 10 of 31 = +32.26%, the
# largest change: pure red; b shrank 5: blue with 210*(1-5/10) = 105 on red and green.
"$TEPHRA" diff "$d/before.folded" "$d/after.folded" -o "$d/d.svg"
has "$d/d.svg" '<title>a (20 samples, 64.52%; +32.26%)</title><rect x="10.0" y="53.0" width="761.3" height="15.0" fill="#ff0000"/>'
has "$d/d.svg" '<title>b (5 samples, 16.13%; -16.13%)</title><rect x="771.3" y="53.0" width="190.3" height="15.0" fill="#6969ff"/>'
has "$d/d.svg" '<title>main (31 samples, 100.00%; +0.00%)</title><rect x="10.0" y="69.0" width="1180.0" height="15.0" fill="#ffffff"/>'
# --negate: widths from "before" (25 samples).
"$TEPHRA" diff --negate "$d/before.folded" "$d/after.folded" -o "$d/n.svg"
has "$d/n.svg" '<title>a (10 samples, 40.00%'
# A two-column file renders as a diff through tephra flamegraph too.
"$TEPHRA" diff --folded "$d/before.folded" "$d/after.folded" | "$TEPHRA" flamegraph > "$d/f.svg"
has "$d/f.svg" 'fill="#ff0000"'
# perf.data on one side: a real recording diffed against itself folded shows no change.
if perf record -q -e cpu-clock -F 999 -g -o "$d/p.data" -- perl -e 'for (1..3e6) { $x .= "a" }' 2>/dev/null; then
	# Oracle for the perf.data side: the machine's perf script, folded by tephra fold's
	# text reader is another engineer's; here the two tephra paths must agree exactly.
	"$TEPHRA" fold "$d/p.data" > "$d/p.folded" || fail "tephra fold"
	"$TEPHRA" diff --no-annotate --folded "$d/p.data" "$d/p.folded" > "$d/pp"
	awk '$(NF-1) != $NF { bad = 1 } END { exit bad }' "$d/pp" || fail "perf.data vs its own fold differs"
	[ -s "$d/pp" ] || fail "no stacks from perf.data"
else
	echo "note: perf record unavailable; perf.data side not checked"
fi
# Usage errors.
! "$TEPHRA" diff "$d/before.folded" > /dev/null 2>&1 || fail "one input accepted"
! "$TEPHRA" diff - - < /dev/null > /dev/null 2>&1 || fail "stdin twice accepted"
echo ok
