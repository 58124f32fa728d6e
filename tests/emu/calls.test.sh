#!/usr/bin/env bash
# tephra emu on tests/guests/calls.S: the folded profile must equal the one worked out
# by hand from the program (see the comment at the top of calls.S), after checking in
# the disassembly that each function has the instruction count that reasoning assumes;
# the total must equal the number of instructions QEMU itself logs (-singlestep exec).
. "$TOP/tests/emu/lib.sh"
cc_guest calls calls.S -nostdlib -march=rv64gc -mabi=lp64d

for fc in _start:4 main:17 leaf:4 rec:8 tailer:2 leaf2:3 ping:4 pong:4 millicode:2 \
	jumper:7 deep1:2 deep2:3; do
	f=${fc%%:*} want=${fc##*:}
	got=$(insns_of calls "$f")
	[ "$got" = "$want" ] || fail "$f has $got instructions in the disassembly, the expected profile assumes $want"
done

cat >expected <<'END'
_start 4
_start;main 17
_start;main;jumper 4
_start;main;jumper;deep1 2
_start;main;jumper;deep1;deep2 3
_start;main;leaf 12
_start;main;leaf2 3
_start;main;millicode 2
_start;main;ping 6
_start;main;pong 6
_start;main;rec 8
_start;main;rec;rec 8
_start;main;rec;rec;rec 7
_start;main;tailer 2
END

for tool in "$TEPHRA" "$TEPHRA_ASAN"; do
	[ -x "$tool" ] || continue
	rm -f calls.folded calls.svg
	"$tool" emu -- ./calls 2>stderr || { cat stderr; fail "tephra emu failed"; }
	LC_ALL=C sort calls.folded | diff -u expected - || fail "profile differs from the hand-worked one ($tool)"
	grep -q '^tephra emu: instructions 84, calls 13, returns 11, tail calls 4, underflows 0, non-local pops 2, signals 0$' stderr ||
		{ cat stderr; fail "self-check counters"; }
	[ -s calls.svg ] || fail "no SVG written"
	grep -q 'deep2' calls.svg || fail "SVG does not show deep2"
done

oracle=$(qemu_pcs qemu-riscv64 ./calls | wc -l)
[ "$oracle" = 84 ] || fail "QEMU logs $oracle instructions, expected 84"

# Nested tail calls keep the tail-caller: tailer;leaf2, ping;pong, never deeper.
"$TEPHRA" emu --nest-tail -o nest.folded -- ./calls 2>/dev/null || fail "emu --nest-tail"
grep -qx '_start;main;tailer;leaf2 3' nest.folded || { cat nest.folded; fail "nested tail call"; }
grep -qx '_start;main;ping;pong 6' nest.folded || { cat nest.folded; fail "nested mutual tail recursion"; }
echo ok
