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

# -n as difffolded.pl -n: when the totals differ, before = int(before * total2 / total1),
# perl's int() truncating.  Totals 4 and 6: a 3*6/4 = 4.5 -> 4, b 1*6/4 = 1.5 -> 1 (rounding
# would give 5 and 2).
printf '%s\n' 'm;a 3' 'm;b 1' > "$d/t1"
printf '%s\n' 'm;a 3' 'm;b 3' > "$d/t2"
"$TEPHRA" diff -n --folded "$d/t1" "$d/t2" > "$d/out"
printf '%s\n' 'm;a 4 3' 'm;b 1 3' | diff - "$d/out" || fail "-n truncates"
# Equal totals: difffolded.pl scales nothing, so fractions stay (totals 2 and 2).
printf '%s\n' 'a 1.5' 'b 0.5' > "$d/e1"
printf '%s\n' 'a 1' 'b 1' > "$d/e2"
"$TEPHRA" diff -n --folded "$d/e1" "$d/e2" > "$d/out"
printf '%s\n' 'a 1.5 1' 'b 0.5 1' | diff - "$d/out" || fail "-n with equal totals"
# Perl multiplies whole numbers exactly in 64 bits and divides exactly when the quotient
# is whole.  Totals 752 = 16*47 and 2121000463531903 = 47 * 45127669436849:
# x = 336*2121000463531903/752 = 21*45127669436849 = 947681058173829 exactly, though in
# doubles the product (7.1e17) rounds down and the quotient truncates to ...828;
# y = 26*45127669436849 = 1173319405358074.
printf '%s\n' 'x 336' 'y 416' > "$d/p1"
printf '%s\n' 'x 2121000463531903' > "$d/p2"
"$TEPHRA" diff -n --folded "$d/p1" "$d/p2" > "$d/out"
printf '%s\n' 'x 947681058173829 2121000463531903' 'y 1173319405358074 0' |
	diff - "$d/out" || fail "-n exact 64-bit quotient"
# Only stacks an input names are printed, not their prefixes (here "a", whose count
# by subtraction is 0 in whole numbers but not quite 0 in doubles once scaled), and a
# named stack with a count of 0 is printed.  Totals 123456792 and 5000000007:
# a;b 123456789*5000000007/123456792 = 4999999885.49... -> 4999999885,
# a;c 3*5000000007/123456792 = 121.50... -> 121.
printf '%s\n' 'a;b 123456789' 'a;c 3' 'z 0' > "$d/b"
printf '%s\n' 'a;b 7' 'a;d 5000000000' > "$d/a"
"$TEPHRA" diff --folded -n "$d/b" "$d/a" > "$d/out"
printf '%s\n' 'a;b 4999999885 7' 'a;c 121 0' 'a;d 0 5000000000' 'z 0 0' |
	diff - "$d/out" || fail "only named stacks"
# Fractional counts print so that they read back exactly and as a count: whole numbers
# in full, others in the fewest digits that give the same double (0.1 + 0.2 is the
# double 0.30000000000000004; 14.2343983248722834234 reads as the double whose
# shortest form is 14.234398324872284), never with an exponent (1e-05, 1.23457e+06,
# and 2^52 as perl prints it, 4.5035996273705e+15).  A stack's count is the sum of its
# lines, 0.1 + 0.1 = 0.2 for x, not x's total less its callee's (0.20000000000000004).
printf '%s\n' 'f 1234567.25' 'g 0.1' 'g 0.2' 'h 0.00001' 'k 14.2343983248722834234' \
	'big 2251799813685248' 'big 2251799813685248' 'x;y 0.1' 'x 0.1' 'x 0.1' > "$d/f1"
printf '%s\n' 'f 1' > "$d/f2"
"$TEPHRA" diff --folded "$d/f1" "$d/f2" > "$d/out"
printf '%s\n' 'big 4503599627370496 0' 'f 1234567.25 1' 'g 0.30000000000000004 0' \
	'h 0.00001 0' 'k 14.234398324872284 0' 'x 0.2 0' 'x;y 0.1 0' |
	diff - "$d/out" || fail "fractional counts"
# Python's floats are the same doubles: each printed count is the sum it should be.
python3 - "$d/out" <<'PY' || fail "counts do not read back as the sums"
import sys
want = {"big": 2.0 ** 52, "f": 1234567.25, "g": 0.1 + 0.2, "h": 0.00001,
        "k": 14.2343983248722834234, "x": 0.1 + 0.1, "x;y": 0.1}
for line in open(sys.argv[1]):
    stack, c1, c2 = line.split()
    assert float(c1) == want[stack], line
PY
# ... and they are counts as folded readers take them (digits, maybe a fraction, at the
# end of the line): tephra's own reader skips no line.
! grep -Ev '^[^ ]+ [0-9]+(\.[0-9]+)? [0-9]+(\.[0-9]+)?$' "$d/out" || fail "count format"
"$TEPHRA" flamegraph "$d/out" -o "$d/rt.svg" 2> "$d/err" && [ ! -s "$d/err" ] ||
	fail "read back: $(cat "$d/err")"

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
. "$TOP/tests/skips.sh"
if perf_can_record -e cpu-clock || partial "$PERF_PROBE_ERR: the perf.data side not checked"; then
	perf record -q -e cpu-clock -F 999 -g -o "$d/p.data" -- perl -e 'for (1..3e6) { $x .= "a" }' 2>"$d/rec.err" ||
		fail "perf record failed: $(head -n 3 "$d/rec.err")"
	# Oracle for the perf.data side: the machine's perf script, folded by tephra fold's
	# text reader is another engineer's; here the two tephra paths must agree exactly.
	"$TEPHRA" fold "$d/p.data" > "$d/p.folded" || fail "tephra fold"
	"$TEPHRA" diff --no-annotate --folded "$d/p.data" "$d/p.folded" > "$d/pp"
	awk '$(NF-1) != $NF { bad = 1 } END { exit bad }' "$d/pp" || fail "perf.data vs its own fold differs"
	[ -s "$d/pp" ] || fail "no stacks from perf.data"
fi
# Usage errors.
! "$TEPHRA" diff "$d/before.folded" > /dev/null 2>&1 || fail "one input accepted"
! "$TEPHRA" diff - - < /dev/null > /dev/null 2>&1 || fail "stdin twice accepted"
echo ok
