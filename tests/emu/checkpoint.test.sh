#!/usr/bin/env bash
# --checkpoint N rewrites the folded output while the guest runs (via a temporary file
# and rename, so a reader never sees a torn file); the final profile is unchanged.
. "$TOP/tests/emu/lib.sh"
cc_guest sleeper sleeper.c -O2
# The guest waits on a FIFO between the halves of its work (no sleep): the plain run finds
# its line already there (written through a read-write descriptor, which never blocks);
# the checkpointed run is released only once a checkpoint was seen.  (Names of one length:
# the guest's stack layout, and so libc's string loops at start-up, depend on argv.)
mkfifo run1.go run2.go
exec 3<>run1.go
echo go >&3
env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o plain.folded -- ./sleeper run1.go >/dev/null 2>&1 </dev/null ||
	fail "emu (no checkpoint) failed"
exec 3>&-
env -i PATH="$PATH" "$TEPHRA" emu --checkpoint 100000 --no-svg -o cp.folded -- ./sleeper run2.go >/dev/null 2>emu.err </dev/null &
pid=$!
# The guest ran about 1.3 M instructions and waits: a checkpoint must come while it does.
# (The sleep paces the look; the bound, 2 minutes, only stops a broken run.)
mid=0
for _ in $(seq 1200); do
	if [ -s cp.folded ]; then
		mid=$(total cp.folded)
		[ "$mid" -ge 100000 ] && break
	fi
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
exec 3<>run2.go
echo go >&3
wait $pid || { cat emu.err; fail "emu --checkpoint"; }
[ "$mid" -ge 100000 ] || fail "no checkpoint seen while the guest ran"
final=$(total cp.folded)
[ "$mid" -lt "$final" ] || fail "checkpoint ($mid) not before the end ($final)"
exec 3>&-
diff -u plain.folded cp.folded || fail "final profile differs with checkpoints"
[ ! -e cp.folded.tmp ] || fail "temporary file left behind"
echo ok
