#!/usr/bin/env bash
# A device given as -o to every command that takes one is written in place and stays
# the device it was (before: flamegraph and diff unlinked it after a write error, grind
# and emu renamed a file over it; as root with -o /dev/full that deleted /dev/full).
# Nodes made with mknod in $TEST_TMP: 1,7 is what /dev/full is (every write fails with
# ENOSPC: the command must exit non-zero saying "write error"), 1,3 is /dev/null (the
# command succeeds).  The oracle is the node itself: stat's type and numbers after.
# A FIFO: what its reader gets is what -o FILE holds.
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
# A FIFO is written in place too: a reader gets the bytes -o FILE holds, the FIFO
# stays (cat ends when the command closes it: no timing involved).
mkfifo pipe || fail "mkfifo"
for name in flamegraph diff-folded export; do
	cat pipe >got &
	if ! run_cmd "$name" pipe; then
		exec 9<>pipe 9>&- # frees the reader if the command never opened the FIFO
		cat "$name.err"; fail "$name -o pipe"
	fi
	wait $! || fail "$name -o pipe: the reader failed"
	[ -p pipe ] || fail "$name -o pipe: no longer a FIFO"
	run_cmd "$name" file.out || fail "$name -o file.out"
	cmp -s got file.out || fail "$name -o pipe: the reader got other bytes than -o FILE"
	echo "ok $name -o FIFO"
done
# The graph of grind and emu is drawn from a copy of ours, not read back from -o.
if [[ " $CMDS " = *" grind "* ]]; then
	"$TEPHRA" grind -q -o null --svg=gn.svg /bin/true 2>g.err || { cat g.err; fail "grind -o null --svg"; }
	grep -q '<title>true ' gn.svg || fail "grind -o null: the graph has no true frame"
fi
