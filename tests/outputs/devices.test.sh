#!/usr/bin/env bash
# A device given as -o to every command that takes one is written in place and stays
# the device it was (before: flamegraph and diff unlinked it after a write error, grind
# and emu renamed a file over it; as root with -o /dev/full that deleted /dev/full).
# Nodes made with mknod in $TEST_TMP: 1,7 is what /dev/full is (every write fails with
# ENOSPC: the command must exit non-zero saying "write error"), 1,3 is /dev/null (the
# command succeeds).  The oracle is the node itself: stat's type and numbers after.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "mknod needs root"
make_inputs
mknod full c 1 7 && mknod null c 1 3 || skip "mknod does not work here"
node() { stat -c '%F %t,%T' "$1" 2>&1; }
for name in $CMDS; do
	run_cmd "$name" null; rc=$?
	[ "$(node null)" = "character special file 1,3" ] || fail "$name -o null: now $(node null)"
	[ $rc = 0 ] || { cat "$name.err"; fail "$name -o null: exit $rc"; }
	run_cmd "$name" full; rc=$?
	[ "$(node full)" = "character special file 1,7" ] || fail "$name -o full: now $(node full)"
	[ $rc != 0 ] || fail "$name -o full: exit 0"
	grep -q "^tephra [a-z]*: .*full: write error: No space left on device$" "$name.err" ||
		{ cat "$name.err"; fail "$name -o full: no write error naming it"; }
	echo "ok $name"
done
# The graph of grind and emu is drawn from a copy of ours, not read back from -o.
if [[ " $CMDS " = *" grind "* ]]; then
	"$TEPHRA" grind -q -o null --svg=gn.svg /bin/true 2>g.err || { cat g.err; fail "grind -o null --svg"; }
	grep -q '<title>true ' gn.svg || fail "grind -o null: the graph has no true frame"
fi
