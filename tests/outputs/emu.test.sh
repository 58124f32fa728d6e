#!/usr/bin/env bash
# The outputs of tephra emu, its QEMU plugin, trace and symbolize by the same rule as
# every command (docs/hostile.md, "Output files"):
#  - emu -o - writes the profile on standard output (before: a file named "-"), whole:
#    its total is the number of instructions QEMU's own -singlestep exec log shows;
#  - a device as -o stays the device (before: emu removed it before the run and the
#    plugin renamed a file over it), a write error is said and fails the command;
#  - a regular file is replaced by a new one (a new inode);
#  - the plugin never writes through a link another user planted in a sticky directory,
#    at the output or at the temporary name it used to use (GUEST.folded.tmp).
. "$TOP/tests/emu/lib.sh"
cc_guest wl workload.c -O2
emu() { env -i PATH="$PATH" "$TEPHRA" emu "$@" </dev/null; }
qemu_pcs qemu-riscv64 ./wl >wl.pcs
[ -s wl.pcs ] || fail "premise: QEMU's exec log shows no instruction"
want=$(wc -l <wl.pcs)

# -o -: the guest's own output first, then the profile (copied at the end).  The guest
# runs a few instructions more or less when its standard output is a file rather than
# /dev/null (stdio sizes its buffer from fstat): QEMU's count is taken with a file too.
env -i PATH="$PATH" qemu-riscv64 -singlestep -d exec,nochain -D file.log ./wl >guest.txt 2>/dev/null </dev/null
want_file=$(grep -c '^Trace ' file.log)
emu -o - -- ./wl >stdout.txt 2>emu.err || { cat emu.err; fail "emu -o -"; }
[ ! -e ./- ] || fail "emu -o - wrote a file named -"
n=$(wc -l <guest.txt)
head -n "$n" stdout.txt | cmp -s - guest.txt || fail "emu -o -: the guest's output is not first"
tail -n +"$((n + 1))" stdout.txt >profile.txt
[ "$(total profile.txt)" = "$want_file" ] ||
	fail "emu -o -: $(total profile.txt) instructions, QEMU ran $want_file"
echo "ok emu -o -"

# a regular file: replaced whole
echo old >wl.folded
ino=$(stat -c %i wl.folded)
emu --no-svg -o wl.folded -- ./wl >/dev/null 2>emu.err || { cat emu.err; fail "emu -o wl.folded"; }
[ "$(total wl.folded)" = "$want" ] && [ "$(stat -c %i wl.folded)" != "$ino" ] ||
	fail "emu over a regular file: $(head -n 2 wl.folded)"
echo "ok emu over a file"

if [ "$(id -u)" = 0 ] && mknod full c 1 7 && mknod null c 1 3; then
	node() { stat -c '%F %t,%T' "$1" 2>&1; }
	emu --no-svg -o null -- ./wl >/dev/null 2>emu.err || { cat emu.err; fail "emu -o null"; }
	[ "$(node null)" = "character special file 1,3" ] || fail "emu -o null: now $(node null)"
	emu --no-svg -o full -- ./wl >/dev/null 2>emu.err && fail "emu -o full: exit 0"
	[ "$(node full)" = "character special file 1,7" ] || fail "emu -o full: now $(node full)"
	grep -q '^tephra emu: full: write error: No space left on device$' emu.err ||
		{ cat emu.err; fail "emu -o full: no write error"; }
	"$TEPHRA" symbolize --elf wl -o null profile.txt || fail "symbolize -o null"
	"$TEPHRA" symbolize --elf wl -o full profile.txt 2>sym.err && fail "symbolize -o full: exit 0"
	grep -q '^tephra symbolize: full: write error: No space left on device$' sym.err ||
		{ cat sym.err; fail "symbolize -o full: no write error"; }
	env -i PATH="$PATH" qemu-riscv64 -singlestep -d exec,nochain -D wl.log ./wl >/dev/null 2>&1 </dev/null
	"$TEPHRA" trace --elf wl -o null wl.log 2>/dev/null || fail "trace -o null"
	"$TEPHRA" trace --elf wl -o full wl.log 2>trace.err && fail "trace -o full: exit 0"
	grep -q '^tephra trace: full: write error: No space left on device$' trace.err ||
		{ cat trace.err; fail "trace -o full: no write error"; }
	"$TEPHRA" trace --elf wl -f pprof -o full wl.log 2>trace.err && fail "trace -f pprof -o full: exit 0"
	[ "$(node null)" = "character special file 1,3" ] && [ "$(node full)" = "character special file 1,7" ] ||
		fail "symbolize or trace replaced a device"
	echo "ok devices"
fi

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$TEST_TMP"
	mkdir -m 1777 shared
	echo precious >victim
	echo precious >victim2
	$NOBODY ln -s ../victim shared/p.folded
	$NOBODY ln -s ../victim2 shared/q.folded.tmp
	[ "$(stat -c %u shared/p.folded)" = 65534 ] || fail "premise: nobody's link"
	emu --no-svg -o shared/p.folded -- ./wl >/dev/null 2>emu.err && fail "emu through nobody's link: exit 0"
	grep -q 'shared/p.folded: a symbolic link owned by uid 65534' emu.err || { cat emu.err; fail "emu: link not named"; }
	# the plugin alone, as a user of QEMU runs it
	env -i PATH="$PATH" qemu-riscv64 -plugin "$PLUGIN,out=shared/p.folded" ./wl >/dev/null 2>plugin.err </dev/null
	grep -q 'shared/p.folded: a symbolic link owned by uid 65534' plugin.err ||
		{ cat plugin.err; fail "plugin: link not named"; }
	env -i PATH="$PATH" qemu-riscv64 -plugin "$PLUGIN,out=shared/q.folded" ./wl >/dev/null 2>plugin.err </dev/null ||
		{ cat plugin.err; fail "plugin out=shared/q.folded"; }
	[ "$(total shared/q.folded)" = "$want" ] || fail "plugin: q.folded holds $(total shared/q.folded) instructions"
	[ "$(cat victim)" = precious ] && [ "$(cat victim2)" = precious ] || fail "a link's target was written"
	[ -L shared/p.folded ] && [ -L shared/q.folded.tmp ] || fail "a planted link was replaced"
	echo "ok links"
fi
