#!/usr/bin/env bash
# Compressed jumps (c.jal on RV32, c.j, c.jr, c.jalr, c.bnez) on RV32 and RV64 guests:
# the profile must equal the hand-worked one in tests/guests/compressed.S.
. "$TOP/tests/emu/lib.sh"
cat >expected <<'END'
_start 4
_start;main 9
_start;main;f 2
_start;main;g 6
_start;main;g2 2
END
for xlen in 32 64; do
	if [ $xlen = 32 ]; then
		command -v qemu-riscv32 >/dev/null || skip "qemu-riscv32 not installed"
		cc_guest comp$xlen compressed.S -nostdlib -march=rv32imac -mabi=ilp32
		riscv64-linux-gnu-objdump -d -M no-aliases comp32 | grep -q 'c\.jal[[:space:]]' ||
			fail "the RV32 build has no c.jal"
	else
		cc_guest comp$xlen compressed.S -nostdlib -march=rv64gc -mabi=lp64d
	fi
	for fc in _start:4 main:9 f:2 g2:2 g:4; do
		f=${fc%%:*} want=${fc##*:}
		got=$(insns_of comp$xlen "$f")
		[ "$got" = "$want" ] || fail "RV$xlen $f has $got instructions, expected $want"
	done
	"$TEPHRA" emu -o comp$xlen.folded -- qemu-riscv$xlen ./comp$xlen 2>stderr ||
		{ cat stderr; fail "tephra emu RV$xlen"; }
	LC_ALL=C sort comp$xlen.folded | diff -u expected - || fail "RV$xlen profile"
	grep -q 'calls 3, returns 3, tail calls 1, underflows 0' stderr || { cat stderr; fail "RV$xlen counters"; }
	n=$(qemu_pcs qemu-riscv$xlen ./comp$xlen | wc -l)
	[ "$n" = 23 ] || fail "QEMU logs $n instructions for RV$xlen, expected 23"
	# Offline from QEMU's own log: the same hand-worked profile.
	qemu-riscv$xlen -singlestep -d exec,nochain -D comp$xlen.log ./comp$xlen
	"$TEPHRA" trace --elf comp$xlen comp$xlen.log 2>/dev/null | LC_ALL=C sort |
		diff -u expected - || fail "RV$xlen offline profile"
done
echo ok
