#!/usr/bin/env bash
# A guest killed by SIGSEGV: tephra emu still writes the profile up to the fault, says
# so, and exits as the guest died (128 + 11).  Per function the profile equals QEMU's own
# record: the block holding the faulting store counts up to that store, not beyond.
. "$TOP/tests/emu/lib.sh"
cc_guest fault fault.c -O2
run_both fault
rc=$?
[ $rc = 139 ] || { cat emu.err; fail "exit status $rc, expected 139"; }
grep -q 'killed by signal 11' emu.err || { cat emu.err; fail "no fault message"; }
grep -q 'the profile is partial' emu.err || { cat emu.err; fail "plugin did not say partial"; }
m='_start;__libc_start_main_impl;__libc_start_call_main;main'
grep -q "^$m;work " fault.folded || fail "work missing"
grep -q "^$m;crash " fault.folded || fail "crash missing"
python3 "$TOP/tests/emu/flat_oracle.py" fault fault.pcs fault.folded || fail "flat profile"
echo ok
