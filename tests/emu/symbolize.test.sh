#!/usr/bin/env bash
# tephra emu --raw + tephra symbolize: raw frames are call sites and leaf pcs; expanded
# they give the inline chain with the call lines found in the source (markers in
# tests/guests/inlines.c), and once inlined frames and lines are dropped again they sum
# to exactly the profile tephra emu names directly.
. "$TOP/tests/emu/lib.sh"
cc_guest inl inlines.c -O2
cc_guest wl workload.c -O2
L() { grep -n "$1" "$GUESTS/inlines.c" | cut -d: -f1; }

# strip FILE: drop "_[i]" frames and " (file:line)", sum equal stacks, sort.
strip() {
	sed -E 's/;[^;]*_\[i\]( \([^)]*\))?//g; s/ \([^;()]*:[0-9]+\)//g' "$1" |
		awk '{ c = $NF; $NF = ""; sub(/ $/, ""); s[$0] += c } END { for (k in s) print k " " s[k] }' |
		LC_ALL=C sort
}

for g in inl wl; do
	env -i PATH="$PATH" "$TEPHRA" emu --raw -o $g.raw -- ./$g >/dev/null 2>&1 </dev/null || fail "emu --raw $g"
	env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o $g.names -- ./$g >/dev/null 2>&1 </dev/null || fail "emu $g"
	grep -Eqv '^(0x[0-9a-f]+;)*0x[0-9a-f]+ [0-9]+$' $g.raw && fail "$g: raw frames are not all hex"
	"$TEPHRA_ASAN" symbolize --elf $g -o $g.sym $g.raw || fail "symbolize $g"
	[ "$(total $g.sym)" = "$(total $g.names)" ] || fail "$g: total changed"
	strip $g.sym >$g.stripped
	LC_ALL=C sort $g.names | diff -u - $g.stripped || fail "$g: symbolized names differ from tephra emu's"
done

# Raw leaves are pcs: in inl's loop every pc of sq's body runs 200 times.
m="main (inlines.c:$(L CALL-OUTER));outer (inlines.c:$(L CALL-SUMSQ))"
line=$(grep -F "$m;sumsq_[i] (inlines.c:$(L CALL-SQ));sq_[i] (inlines.c:$(L LINE-SQ)) " inl.sym) ||
	{ cat inl.sym; fail "inline chain outer > sumsq > sq with call lines"; }
n=${line##* }
[ $((n % 200)) = 0 ] && [ "$n" -gt 0 ] || fail "sq's count $n is not a multiple of the 200 iterations"
grep -qF "$m;sumsq_[i] (inlines.c:" inl.sym || fail "sumsq frame"

# Bad input: says where, never crashes.
printf '0x10;0x20 5\nnot folded\n' >bad.raw
"$TEPHRA_ASAN" symbolize --elf wl bad.raw >/dev/null 2>err && fail "bad line accepted"
grep -q 'bad.raw: offset 0xc: not a folded line' err || { cat err; fail "bad line message"; }
printf '0xzz;[signal 10];0x1 3\n0xffffffffffffffff 1\n' >odd.raw
"$TEPHRA_ASAN" symbolize --elf wl odd.raw >odd.sym 2>err || { cat err; fail "odd frames"; }
grep -q '^0xzz;\[signal 10\];\[unknown\] 3$' odd.sym || { cat odd.sym; fail "non-address frames must be kept"; }
echo ok
