#!/usr/bin/env bash
# tephra emu exits as the guest did, as QEMU itself reports it: a guest's own exit
# code, 128 + N for a guest killed by signal N; also when our caller ignores SIGCHLD
# (inherited across exec: the kernel then reaps children itself and waitpid fails,
# which once gave a status read from an uninitialised variable).
. "$TOP/tests/emu/lib.sh"
printf 'int main(void) { return 3; }\n' > three.c
riscv64-linux-gnu-gcc -static -O2 -o three three.c || fail "cannot build three"
cc_guest fault fault.c -O2
for g in three fault; do
	qemu-riscv64 "./$g" >/dev/null 2>&1 </dev/null
	want=$?
	[ "$want" != 0 ] || fail "QEMU ran $g with exit status 0"
	"$TEPHRA" emu --no-svg -o "$g.folded" -- "./$g" >/dev/null 2>emu.err </dev/null
	rc=$?
	[ "$rc" = "$want" ] || { cat emu.err; fail "$g: exit status $rc, QEMU's is $want"; }
	(trap '' CHLD; exec "$TEPHRA" emu --no-svg -o "$g.ign.folded" -- "./$g") >/dev/null 2>emu.err </dev/null
	rc=$?
	[ "$rc" = "$want" ] || { cat emu.err; fail "$g with SIGCHLD ignored: exit status $rc, QEMU's is $want"; }
	[ -s "$g.ign.folded" ] || fail "$g with SIGCHLD ignored: no profile"
done
grep -q 'killed by signal 11' emu.err || { cat emu.err; fail "no fault message with SIGCHLD ignored"; }
echo ok
