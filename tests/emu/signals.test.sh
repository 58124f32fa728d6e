#!/usr/bin/env bash
# tests/guests/signals.c: SIGUSR1 handled three times, a SIGSEGV escaped with
# siglongjmp.  Handlers sit on "[signal N]" frames above the interrupted code, the
# stack is right afterwards, and the flat profile equals QEMU's own execution record.
. "$TOP/tests/emu/lib.sh"
cc_guest sig signals.c -O2
run_both sig || { cat emu.err; fail "tephra emu"; }
m='_start;__libc_start_main_impl;__libc_start_call_main;main'
grep -q 'signals 4$' emu.err || { cat emu.err; fail "4 signal entries expected"; }
grep -q 'underflows 0,' emu.err || { cat emu.err; fail "underflows"; }
# raise() is tail-called the third time, so one delivery sits under main;raise.
grep -q "^$m;send_three;raise;.*;\[signal 10\];on_usr1 " sig.folded || fail "SIGUSR1 handler frame"
[ "$(grep -c '\[signal 10\];on_usr1 ' sig.folded)" = 2 ] || fail "SIGUSR1 handler paths"
grep -q "^$m;poke;\[signal 11\];on_segv " sig.folded || fail "SIGSEGV handler above poke"
grep -q "^$m;after " sig.folded || fail "after siglongjmp the stack is not back in main"
grep -q "^$m;__printf" sig.folded || fail "printf after siglongjmp not under main"
# The fault stops poke's block at the store: its ret is not counted.
python3 "$TOP/tests/emu/flat_oracle.py" sig sig.pcs sig.folded || fail "flat profile"
echo ok
