#!/usr/bin/env bash
# The plugin's own behaviour: bad arguments are refused with a message (QEMU then does
# not start the guest); a guest fork() leaves the parent's profile; the pc dump it can
# write equals QEMU's own -singlestep record byte for byte.
. "$TOP/tests/emu/lib.sh"
cc_guest calls calls.S -nostdlib -march=rv64gc -mabi=lp64d
qemu-riscv64 -plugin "$PLUGIN,bogus=1" ./calls 2>err && fail "unknown argument accepted"
grep -q "unknown argument 'bogus=1'" err || { cat err; fail "unknown argument message"; }
qemu-riscv64 -plugin "$PLUGIN,budget=12x" ./calls 2>err && fail "bad budget accepted"
grep -q "'budget=12x' is not a number" err || { cat err; fail "bad budget message"; }

# tephra emu's own argument errors.
"$TEPHRA" emu 2>err; [ $? = 2 ] || fail "emu without a command: exit status"
"$TEPHRA" emu -- qemu-riscv64 -plugin x.so ./calls 2>err && fail "second -plugin accepted"
grep -q 'drop -plugin' err || { cat err; fail "-plugin message"; }
"$TEPHRA" emu -- qemu-riscv64 -L 2>err && fail "command without guest accepted"
grep -q 'no guest program' err || { cat err; fail "no guest message"; }
"$TEPHRA" emu -o missing.folded -- ./no-such-guest 2>err && fail "missing guest accepted"
grep -q 'no-such-guest: cannot open the guest' err || { cat err; fail "missing guest message"; }
"$TEPHRA" emu --plugin /nonexistent.so -- ./calls 2>err && fail "missing plugin accepted"
grep -q 'plugin not found' err || { cat err; fail "missing plugin message"; }

# pcs= dump vs QEMU's record.
qemu-riscv64 -plugin "$PLUGIN,out=calls.folded,pcs=calls.bin" ./calls 2>/dev/null || fail "pcs dump run"
qemu_pcs qemu-riscv64 ./calls >calls.pcs
log_to_pcs_lines() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print("\n".join("%016x" % v for (v,) in struct.iter_unpack("<Q", d)))' "$1"; }
log_to_pcs_lines calls.bin | diff -q - calls.pcs >/dev/null || fail "pc dump differs from QEMU's record"

# fork: the child's work must not appear, the parent's must.
cc_guest forks forks.c -O2
run_both forks || { cat emu.err; fail "emu forks"; }
grep -q ';parent_work ' forks.folded || fail "parent's work missing"
grep -q ';child_work ' forks.folded && fail "the child's profile overwrote the parent's"
echo ok
