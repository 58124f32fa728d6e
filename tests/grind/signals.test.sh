#!/usr/bin/env bash
# Signal handlers appear under a "[signal N]" frame above the interrupted stack and
# return to it, on the normal stack and on an alternate one (sigaltstack).
. "$(dirname "$0")/lib.sh"
build signals "$PROGS/signals.c"
cd "$TEST_TMP"
grind sig.folded -- ./signals
grep -qE '^signals;main;raise;.*\[signal 10\];handler;work 4004$' sig.folded ||
	{ grep signal sig.folded; fail "handler work not under main;raise;...;[signal 10];handler"; }
has_line sig.folded "signals;main;work 8004"
no_match sig.folded 'signal 10\].*main|handler;.*handler'
