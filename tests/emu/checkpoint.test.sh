#!/usr/bin/env bash
# --checkpoint N rewrites the folded output while the guest runs (via a temporary file
# and rename, so a reader never sees a torn file); the final profile is unchanged.
. "$TOP/tests/emu/lib.sh"
cc_guest sleeper sleeper.c -O2
env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o plain.folded -- ./sleeper >/dev/null 2>&1 </dev/null
env -i PATH="$PATH" "$TEPHRA" emu --checkpoint 100000 --no-svg -o cp.folded -- ./sleeper >/dev/null 2>emu.err </dev/null &
pid=$!
# The guest sleeps 1.5 s after about 2.6 M instructions: a checkpoint must be there.
mid=0
for _ in $(seq 30); do
	sleep 0.1
	if [ -s cp.folded ]; then
		mid=$(total cp.folded)
		[ "$mid" -ge 100000 ] && break
	fi
done
wait $pid || { cat emu.err; fail "emu --checkpoint"; }
[ "$mid" -ge 100000 ] || fail "no checkpoint seen while the guest ran"
final=$(total cp.folded)
[ "$mid" -lt "$final" ] || fail "checkpoint ($mid) not before the end ($final)"
diff -u plain.folded cp.folded || fail "final profile differs with checkpoints"
[ ! -e cp.folded.tmp ] || fail "temporary file left behind"
echo ok
