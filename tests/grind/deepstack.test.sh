#!/usr/bin/env bash
# A start request at the bottom of a recursion deeper than the old seed limit of
# 20,000 frames: the whole stack is seeded.  (It kept the innermost 20,000 frames and
# took the outermost for a root: every return past it was an underflow, rebuilt by
# another cut unwind, giving thousands of phantom roots and gigabytes of folded
# stacks, silently.)  Deeper than 100,000 frames, the most tephra seeds, the
# outermost frames become one [truncated] frame and stderr says so.
# progs/deepstart.c returns from 3 of its calls and ends with _exit: each depth that
# returns has a line as deep as the stack, so the folded files stay small.
. "$(dirname "$0")/lib.sh"
build deepstart "$PROGS/deepstart.c"
cd "$TEST_TMP"
# has_deep FILE PREFIX N SUFFIX: the line PREFIX, N x "rec;", SUFFIX is present
# (compared through a file: the line is too long for an argument).  Failures show
# each line's first frames and its frame count, not the lines.
has_deep() {
	{ printf '%s' "$2"; printf 'rec;%.0s' $(seq "$3"); printf '%s\n' "$4"; } > expected
	grep -qxFf expected "$1" || {
		awk '{ print substr($1, 1, 60) "... " gsub(/;/, ";") + 1 " frames, " $NF }' "$1"
		fail "$1: no line $2(rec;)x$3$4"
	}
}

grind d.folded --start=off -- ./deepstart 20500 3
has_deep d.folded "deepstart;main;" 20501 "bottom;work 2002"
others=$(grep -vE '^deepstart;main;' d.folded | cut -c1-100)
[ -z "$others" ] || { echo "$others" | head; fail "stacks not rooted at main"; }
grep -q ', 0 underflows repaired,' d.folded.err || { cat d.folded.err; fail "underflows"; }
[ "$(wc -l < d.folded)" -le 10 ] || fail "$(wc -l < d.folded) lines, expected a handful"
grep -q warning d.folded.err && fail "a warning: $(cat d.folded.err)"

grind t.folded --start=off -- ./deepstart 100500 3
has_deep t.folded "deepstart;[truncated];" 99998 "bottom;work 2002"
others=$(grep -vE '^deepstart;\[truncated\];' t.folded | cut -c1-100)
[ -z "$others" ] || { echo "$others" | head; fail "stacks not below [truncated]"; }
grep -qxF 'tephra grind: warning: a stack rebuilt by unwinding was deeper than 100000 frames: its outermost frames are one [truncated] frame' t.folded.err ||
	{ cat t.folded.err; fail "no warning about the truncated stack"; }
grep -q ', 0 underflows repaired,' t.folded.err || { cat t.folded.err; fail "underflows"; }
