#!/usr/bin/env bash
# Symbols that are not function boundaries (tests/guests/labels.S): a zero-size
# `.type @function` label inside a sized function must not split it (no tail calls);
# zero-size function symbols outside every sized one (asm without .size) still start
# functions; NOTYPE symbols in code name what no function symbol covers (labels.S's
# code_label, crt's load_gp in a static glibc guest) and never split a function.
# Oracles: the profile worked out by hand in labels.S (after checking in readelf that
# the guest has the symbol shapes it assumes), QEMU's own count of executed instructions,
# and flat_oracle.py on QEMU's -singlestep record.  Live (tephra emu) and offline
# (tephra trace) share the rule.
. "$TOP/tests/emu/lib.sh"
cc_guest labels labels.S -nostdlib -march=rv64gc -mabi=lp64d

# sym NAME: "TYPE SIZE" from readelf.
sym() { riscv64-linux-gnu-readelf -sW labels | awk -v n="$1" '$8 == n { print $4, $3 }'; }
for want in "loopy:FUNC 20" "loopy_fnlabel:FUNC 0" "loopy_notype:NOTYPE 0" \
	"code_label:NOTYPE 0" "unsized_a:FUNC 0" "unsized_b:FUNC 0" "unsized_b_mid:NOTYPE 0"; do
	got=$(sym "${want%%:*}")
	[ "$got" = "${want#*:}" ] || fail "${want%%:*} is '$got' in readelf, labels.S assumes ${want#*:}"
done

cat >expected <<'END'
_start 6
_start;code_label 3
_start;loopy 302
_start;unsized_a 6
_start;unsized_a;unsized_b 11
END

qemu_pcs qemu-riscv64 ./labels >labels.pcs
[ "$(wc -l <labels.pcs)" = 328 ] || fail "QEMU logs $(wc -l <labels.pcs) instructions, labels.S counts 328"
qemu-riscv64 -singlestep -d exec,nochain -D labels.log ./labels

counters='instructions 328, calls 4, returns 4, tail calls 0, underflows 0, non-local pops 0, signals 0'
for tool in "$TEPHRA" "$TEPHRA_ASAN"; do
	[ -x "$tool" ] || continue
	"$tool" emu --no-svg -o labels.folded -- ./labels 2>stderr || { cat stderr; fail "tephra emu ($tool)"; }
	LC_ALL=C sort labels.folded | diff -u expected - || fail "live profile differs from the hand-worked one ($tool)"
	grep -qx "tephra emu: $counters" stderr || { cat stderr; fail "live self-check counters ($tool)"; }
	python3 "$TOP/tests/emu/flat_oracle.py" labels labels.pcs labels.folded || fail "flat profile ($tool)"
	"$tool" trace --elf labels -o offline.folded labels.log 2>stderr || { cat stderr; fail "tephra trace ($tool)"; }
	LC_ALL=C sort offline.folded | diff -u expected - || fail "offline profile differs from the hand-worked one ($tool)"
	grep -qx "tephra trace: $counters" stderr || { cat stderr; fail "offline self-check counters ($tool)"; }
done

# glibc's crt1 calls load_gp, a NOTYPE label after the sized _start, from _start (and
# through .preinit_array): named, not [unknown].
cc_guest wl workload.c -O2
riscv64-linux-gnu-readelf -sW wl | grep -Eq ' NOTYPE +LOCAL +DEFAULT +[0-9]+ load_gp$' ||
	fail "wl has no NOTYPE load_gp in code (the premise of this check)"
run_both wl || { cat emu.err; fail "tephra emu wl"; }
grep -q '^_start;load_gp 3$' wl.folded || { grep load_gp wl.folded; fail "_start;load_gp missing"; }
grep -q 'unknown' wl.folded && { grep unknown wl.folded; fail "[unknown] frames in wl"; }
python3 "$TOP/tests/emu/flat_oracle.py" wl wl.pcs wl.folded || fail "wl flat profile"
echo ok
