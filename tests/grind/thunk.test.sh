#!/usr/bin/env bash
# A jump from code in no object (a thunk written at run time into an anonymous
# executable mapping) into a function is a tail call, as between two functions: the
# target is a frame.  (It used to be left alone: the target and its own instructions
# were charged to [unknown].)  Counts by hand in progs/thunk.c, and each function's
# own and inclusive cost against callgrind's, in both tail-call modes (only the
# thunk's frame differs between them).
. "$(dirname "$0")/lib.sh"
command -v callgrind_annotate >/dev/null || skip "callgrind_annotate is not installed"
build thunk "$PROGS/thunk.c"
cd "$TEST_TMP"
grind rep.folded -- ./thunk
has_line rep.folded "thunk;main;[unknown] 1"
has_line rep.folded "thunk;main;target;work 2002"
has_line rep.folded "thunk;main;target;inner;work 6002"
has_line rep.folded "thunk;main;work 4002"
no_match rep.folded '\[unknown\];'
grind nest.folded --tail-calls=nest -- ./thunk
has_line nest.folded "thunk;main;[unknown] 1"
has_line nest.folded "thunk;main;[unknown];target;work 2002"
has_line nest.folded "thunk;main;[unknown];target;inner;work 6002"
[ "$(total rep.folded)" = "$(total nest.folded)" ] || fail "totals differ between modes"

valgrind --tool=callgrind --callgrind-out-file=cg.out ./thunk >/dev/null 2>&1 || fail "callgrind failed"
for fn in target inner; do
	cg_self=$(cg_cost cg.out "$fn") cg_incl=$(cg_cost cg.out "$fn" --inclusive=yes)
	[ -n "$cg_self" ] && [ -n "$cg_incl" ] || fail "no callgrind cost for $fn"
	for f in rep.folded nest.folded; do
		[ "$(frame_self $f "$fn")" = "$cg_self" ] ||
			fail "$f: $fn's own cost $(frame_self $f "$fn"), callgrind's $cg_self"
		[ "$(frame_incl $f "$fn")" = "$cg_incl" ] ||
			fail "$f: $fn's inclusive cost $(frame_incl $f "$fn"), callgrind's $cg_incl"
	done
	echo "$fn: self $cg_self, inclusive $cg_incl, as callgrind"
done
