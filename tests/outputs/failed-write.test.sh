#!/usr/bin/env bash
# After a failed write, a regular file that was the output is left as it was, and no
# file of ours is left beside it (before: flamegraph and diff truncated it, then
# unlinked it; the others truncated it).  The write fails for certain: the outputs are
# in a small tmpfs, mounted in this test's own mount namespace, filled with a file
# until a write returned ENOSPC.  The oracle is a copy of each file taken before.
self=$(readlink -f "$0")
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
if [ -z "${OUTPUTS_NS:-}" ]; then
	OUTPUTS_NS=1 exec unshare -m --propagation private bash "$self" ||
		skip "unshare -m does not work here"
fi
make_inputs
mkdir small && mount -t tmpfs -o size=256k tmpfs small || skip "cannot mount a tmpfs"
for name in $CMDS; do
	echo "precious $name" >"small/$name.out"
	cp "small/$name.out" "$name.copy"
done
# full: dd stops at the first ENOSPC
dd if=/dev/zero of=small/filler bs=4k 2>dd.err && fail "premise: the tmpfs did not fill"
grep -q 'No space left on device' dd.err || fail "premise: dd: $(cat dd.err)"
ls small >before.ls
for name in $CMDS; do
	run_cmd "$name" "small/$name.out"; rc=$?
	[ $rc != 0 ] || fail "$name: exit 0 writing to a full file system"
	grep -qE "^tephra [a-z]+: (.*/)?small/$name.out: write error: No space left on device$" "$name.err" ||
		{ cat "$name.err"; fail "$name: no write error naming the file"; }
	cmp -s "small/$name.out" "$name.copy" || fail "$name: the file was changed: $(head -c 80 "small/$name.out")"
	ls small | cmp -s - before.ls || fail "$name: files left: $(ls small)"
	echo "ok $name"
done
umount small
