#!/usr/bin/env bash
# Fault injection on every command that writes (issue 27, "never lose data"): each
# output given to
#  - a full device (a node 1,7 made with mknod: every write fails with ENOSPC), as -o
#    and as standard output (>/dev/full);
#  - a closed standard output (>&-): a command printing there fails with a write error,
#    one writing to -o FILE is not concerned and writes FILE whole;
#  - a read-only directory (a tmpfs in this test's own mount namespace, remounted
#    read-only: EROFS even for root, who ignores permission bits), over a file that
#    was there.
# After each: nothing under in/ and ro/ changed (sha256sum, node numbers), the exit
# status is non-zero and the first line of stderr is "tephra CMD: ..." saying what.
self=$(readlink -f "$0")
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "mknod and mount need root"
if [ -z "${FAULTS_NS:-}" ]; then
	FAULTS_NS=1 exec unshare -m --propagation private bash "$self" ||
		skip "unshare -m does not work here"
fi
make_inputs
mknod full c 1 7 || skip "mknod does not work here"
dd if=/dev/zero of=full bs=1 count=1 2>dd.err && die "premise: the node took a write"
grep -q 'No space left on device' dd.err || die "premise: full: $(cat dd.err)"

# The commands writing to -o (NAME KIND: what ocmd NAME OUT runs, KIND its output).
OCMDS="flamegraph:svg diff:svg diff-folded:folded heatmap:html export-pprof:pprof
	export-callgrind:callgrind export-speedscope:speedscope record:svg record-folded:folded"
[ $HAVE_GRIND = 1 ] && OCMDS="$OCMDS grind:folded grind-svg:svg grind-nochildren:folded"
[ $HAVE_EMU = 1 ] && OCMDS="$OCMDS emu:folded emu-pprof:pprof trace:folded trace-speedscope:speedscope symbolize:folded"
ocmd() {
	local name=$1 out=$2
	case $name in
	flamegraph) "$TEPHRA" flamegraph -o "$out" in/a.folded;;
	diff) "$TEPHRA" diff -o "$out" in/a.folded in/b.folded;;
	diff-folded) "$TEPHRA" diff --folded -o "$out" in/a.folded in/b.folded;;
	heatmap) "$TEPHRA" heatmap -o "$out" in/perf.data;;
	export-*) "$TEPHRA" export -f "${name#export-}" -o "$out" in/perf.data;;
	record) "$TEPHRA" record -q -d rec.data -o "$out" -- sh -c "$LOOP";;
	record-folded) "$TEPHRA" record -q -d rec.data -o rec.svg --folded "$out" -- sh -c "$LOOP";;
	grind) "$TEPHRA" grind -q --no-svg -o "$out" /bin/true;;
	grind-svg) "$TEPHRA" grind -q -o g.folded --svg="$out" /bin/true;;
	grind-nochildren) "$TEPHRA" grind -q --no-children --no-svg -o "$out" /bin/true;;
	emu) env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o "$out" -- in/guest </dev/null;;
	emu-pprof) env -i PATH="$PATH" "$TEPHRA" emu -f pprof -o "$out" -- in/guest </dev/null;;
	trace) "$TEPHRA" trace --elf in/guest -o "$out" in/guest.log;;
	trace-speedscope) "$TEPHRA" trace --elf in/guest -f speedscope -o "$out" in/guest.log;;
	symbolize) "$TEPHRA" symbolize --elf in/guest -o "$out" in/raw.folded;;
	*) die "ocmd: unknown $name";;
	esac
}
# The commands printing on standard output (NAME: what scmd NAME runs).
SCMDS="script fold stat stat-records stat-build-ids report flamegraph diff heatmap
	export-pprof export-callgrind export-speedscope"
[ $HAVE_GRIND = 1 ] && SCMDS="$SCMDS grind"
[ $HAVE_EMU = 1 ] && SCMDS="$SCMDS emu trace symbolize"
scmd() {
	case $1 in
	script|fold|report|heatmap) "$TEPHRA" "$1" in/perf.data;;
	stat) "$TEPHRA" stat in/perf.data;;
	stat-records) "$TEPHRA" stat --records in/perf.data;;
	stat-build-ids) "$TEPHRA" stat --build-ids in/perf.data;;
	flamegraph) "$TEPHRA" flamegraph in/a.folded;;
	diff) "$TEPHRA" diff in/a.folded in/b.folded;;
	export-*) "$TEPHRA" export -f "${1#export-}" -o - in/perf.data;;
	grind) "$TEPHRA" grind -q --no-svg -o - /bin/true;;
	emu) env -i PATH="$PATH" "$TEPHRA" emu -o - -- in/guest </dev/null;;
	trace) "$TEPHRA" trace --elf in/guest in/guest.log;;
	symbolize) "$TEPHRA" symbolize --elf in/guest in/raw.folded;;
	*) die "scmd: unknown $1";;
	esac
}
cmd_of() { echo "${1%%-*}"; }

# ro/: a file per command already there, then the file system made read-only.
mkdir ro && mount -t tmpfs -o size=1m tmpfs ro || skip "cannot mount a tmpfs"
for c in $OCMDS; do echo "precious ${c%%:*}" >"ro/${c%%:*}.out"; done
mount -o remount,ro ro || skip "cannot remount read-only"
touch ro/probe 2>/dev/null && die "premise: ro/ took a new file"
before=$(sums)
unchanged() { [ "$(sums)" = "$before" ] || fail "$1: a file that was there changed: $(diff <(echo "$before") <(sums) | head -n 4)"; }
# said CMD FILE REGEX: the first line of stderr FILE is "tephra CMD: " and matches REGEX
said() {
	local first; first=$(grep -m1 '^tephra' "$2")
	[[ "$first" =~ ^tephra\ $1:\  ]] && grep -qE "$3" "$2" ||
		{ fail "$1: stderr does not say '$3': $(head -c 300 "$2")"; return 1; }
}
leftovers() { # no hidden file of ours beside an output, no directory in TMPDIR
	local left; left=$(ls -A . tmp | grep -E '^\.[^.].*\.tephra-|^tephra-')
	[ -z "$left" ] || { fail "$1: left $left"; rm -rf ./.*.tephra-* tmp/tephra-*; }
}

for c in $OCMDS; do
	name=${c%%:*} kind=${c##*:} cmd=$(cmd_of "$name")
	# -o a full device
	ocmd "$name" full >o.out 2>o.err; rc=$?
	[ $rc != 0 ] || fail "$name -o full: exit 0"
	said "$cmd" o.err "full: write error: No space left on device$"
	[ "$(stat -c '%F %t,%T' full)" = "character special file 1,7" ] || fail "$name -o full: the node changed"
	unchanged "$name -o full"
	# -o over a file in a read-only directory
	ocmd "$name" "ro/$name.out" >o.out 2>o.err; rc=$?
	[ $rc != 0 ] || fail "$name -o ro/$name.out: exit 0"
	said "$cmd" o.err "ro/$name.out: .*Read-only file system"
	unchanged "$name -o ro/"
	# standard output closed, -o a regular file: written whole, exit 0
	rm -f new.out
	ocmd "$name" new.out >&- 2>o.err; rc=$?
	[ $rc = 0 ] || fail "$name -o new.out >&-: exit $rc: $(head -c 300 o.err)"
	whole new.out "$kind" || fail "$name -o new.out >&-: not a whole $kind"
	unchanged "$name >&-"
	leftovers "$name"
	echo "ok $name -o (full, read-only, stdout closed)"
done

for name in $SCMDS; do
	cmd=$(cmd_of "$name")
	scmd "$name" >/dev/full 2>s.err; rc=$?
	[ $rc != 0 ] || fail "$name >/dev/full: exit 0"
	said "$cmd" s.err "write error: No space left on device$"
	unchanged "$name >/dev/full"
	scmd "$name" >&- 2>s.err; rc=$?
	[ $rc != 0 ] || fail "$name >&-: exit 0"
	said "$cmd" s.err "write error: Bad file descriptor$"
	unchanged "$name >&-"
	leftovers "$name"
	echo "ok $name (>/dev/full, >&-)"
done
umount ro
exit $((failures > 0))
