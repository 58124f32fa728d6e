#!/usr/bin/env bash
# Calls and returns interrupted by frequent timer signals and by thread switches: a
# call or return announced by one block and consumed by the next survives a signal
# handler or another thread running in between.  Counts are exact whatever the timing.
. "$(dirname "$0")/lib.sh"
build stress "$PROGS/stress.c" -lpthread
cd "$TEST_TMP"
check() { # FILE ROOT...: ROOT a thread's root frame, below the process's, "stress"
	local f=$1; shift
	for r in "$@"; do
		has_line "$f" "stress;$r;loops;a;work 2200000"
		has_line "$f" "stress;$r;loops;b;work 4200000"
	done
	others=$(grep -v '^stress;' "$f")
	[ -z "$others" ] || { echo "$others" | head; fail "stacks without the process's root"; }
	# Every work frame sits under loops;a or loops;b, and a/b only under loops.
	bad=$(grep -E '(^|;)work( |;)' "$f" | grep -vE '(^|;)loops;[ab];work( |;)')
	[ -z "$bad" ] || { echo "$bad" | head; fail "work under the wrong caller"; }
	bad=$(grep -E '(^|;)[ab]( |;)' "$f" | grep -vE '(^|;)loops;[ab]( |;)')
	[ -z "$bad" ] || { echo "$bad" | head; fail "a or b under the wrong caller"; }
	no_match "$f" '^stress;(a|b|loops|work|on_alarm)[; ]'
	# Handlers only above a [signal 14] frame.
	no_match "$f" '[^]];on_alarm'
}
grind one.folded -- ./stress
check one.folded main
grind two.folded -- ./stress threads
check two.folded main runner
