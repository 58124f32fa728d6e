#!/usr/bin/env bash
# --budget N stops the guest after exactly N instructions: the profile totals N and, per
# function, equals the first N instructions of QEMU's own execution record.
. "$TOP/tests/emu/lib.sh"
cc_guest wl workload.c -O2
for n in 1 777 5000 20000; do
	env -i PATH="$PATH" "$TEPHRA" emu --budget $n --no-svg -o b$n.folded -- ./wl >/dev/null 2>emu.err </dev/null ||
		{ cat emu.err; fail "emu --budget $n"; }
	[ "$(total b$n.folded)" = $n ] || fail "--budget $n gave $(total b$n.folded) instructions"
	grep -q "(budget of $n instructions reached)" emu.err || { cat emu.err; fail "budget message"; }
done
qemu_pcs qemu-riscv64 ./wl >wl.pcs
for n in 777 5000 20000; do
	python3 "$TOP/tests/emu/flat_oracle.py" wl wl.pcs b$n.folded $n || fail "--budget $n profile"
done
# A budget beyond the program's end changes nothing.
env -i PATH="$PATH" "$TEPHRA" emu --budget 100000000 --no-svg -o big.folded -- ./wl >/dev/null 2>emu.err </dev/null ||
	fail "emu with a large budget"
[ "$(total big.folded)" = "$(wc -l <wl.pcs)" ] || fail "large budget total"
"$TEPHRA" emu --budget 12x -- ./wl 2>/dev/null && fail "--budget 12x accepted"
echo ok
