#!/usr/bin/env bash
# Containers (docs/symbols.md, "One path, two files"): a system-wide recording holds a
# process in a chroot and one outside, each mapping its own libct.so at the SAME path
# string: ct_inside_* in the chroot's file, ct_outside_* in the host's: the same
# code but for the leaf's stack frame.  Each process's frames must be named from its own file:
#  1. the chroot process still runs (recorded with --no-buildid-cache): its file is
#     /proc/PID/root/PATH (perf 6.1 records the host file's build-id for both and names
#     the chroot's frames ct_outside_*: it is no oracle there; the oracle is which file
#     holds which names).  Recorded with frame pointers, then with DWARF: the library
#     has no frame pointers, so only its own CFI (in the chroot's file) leads the DWARF
#     walk from ct_inside_leaf up to main;
#  2. the processes are gone, recorded with --buildid-mmap (each MMAP2 carries its
#     file's build-id) and the chroot's file in a build-id cache: by build-id, as perf
#     script does (the oracle).
# Needs root (chroot); the chroot holds copies of the program, ld.so and libc (ldd).
. "$TOP/tests/symbol/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root (chroot)"
command -v chroot >/dev/null && command -v ldd >/dev/null && command -v timeout >/dev/null ||
	skip "chroot, ldd or timeout missing"
cd "$TEST_TMP"
export LC_ALL=C
TEPHRA=$TOP/build/tephra
CALLS=200000                            # ~0.3 s of CPU each: hundreds of samples
CT=$(mktemp -d /tmp/tephra-ct.XXXXXX)   # the same path string in both roots
ROOT=$TEST_TMP/root
INSIDE_PID=
cleanup() {
	[ -n "$INSIDE_PID" ] && kill "$INSIDE_PID" 2>/dev/null
	rm -rf "$CT"
}
trap cleanup EXIT
mkdir -p "$CT/lib" "$ROOT$CT/lib"
gcc -O1 -g -fomit-frame-pointer -shared -fPIC -o "$CT/lib/libct.so" "$PROGS/ct_lib.c" &&
	gcc -O1 -g -fomit-frame-pointer -shared -fPIC -DCT_INSIDE -o "$ROOT$CT/lib/libct.so" \
		"$PROGS/ct_lib.c" &&
	gcc -O1 -g -fno-omit-frame-pointer -o "$CT/prog" "$PROGS/ct_main.c" -L"$CT/lib" -lct \
		-Wl,-rpath,"$CT/lib" || fail "build"
cp "$CT/prog" "$ROOT$CT/prog"
for f in $(ldd "$CT/prog" | grep -o '/[^ ]*' | grep -v "^$CT/"); do
	mkdir -p "$ROOT$(dirname "$f")" && cp -L "$f" "$ROOT$f" || fail "copy $f"
done
chroot "$ROOT" "$CT/prog" 10 >/dev/null 2>&1 || skip "cannot run a program in a chroot here"
nm "$ROOT$CT/lib/libct.so" | grep -q ct_inside_leaf && nm "$CT/lib/libct.so" | grep -q ct_outside_leaf ||
	fail "the two libraries do not hold their names"

# by_pid SCRIPT: "PID SYMBOL" for every libct.so frame of perf-script text (-F pid,ip,sym,dso)
by_pid() {
	awk -v lib="($CT/lib/libct.so)" '/^ *[0-9]+ *$/ { pid = $1; next }
		$NF == lib { print pid, $2 }' "$1" | sort | uniq -c
}
# check_names TEXT INSIDE_PID: every libct frame named from its own process's file
check_names() {
	local text=$1 inside=$2
	by_pid "$text" >"$text.bypid"
	awk -v in_pid="$inside" '
		$2 == in_pid && $3 ~ /^ct_outside_/ { bad = bad "\n  chroot process named from the host file: " $0 }
		$2 != in_pid && $3 ~ /^ct_inside_/  { bad = bad "\n  host process named from the chroot file: " $0 }
		$2 == in_pid && $3 == "ct_inside_leaf"  { inl = 1 }
		$2 != in_pid && $3 == "ct_outside_leaf" { outl = 1 }
		END {
			if (!inl) bad = bad "\n  no ct_inside_leaf frame for the chroot process"
			if (!outl) bad = bad "\n  no ct_outside_leaf frame for the host process"
			if (bad != "") { print substr(bad, 2); exit 1 }
		}' "$text.bypid" || { cat "$text.bypid"; fail "$text: frames named from the other file"; }
}

# 1. The chroot process still runs: /proc/PID/root/PATH.  It spins, says "spun", and
#    waits for its stdin (the fifo 'hold', held open here by fd 3) to end.
# record_live NAME CALL-GRAPH: records NAME.data, the chroot process left running.
record_live() {
	rm -f hold spun
	mkfifo hold spun
	exec 3<>hold
	perf record -q --no-buildid-cache -a --call-graph "$2" -e cpu-clock -F 1000 -o "$1.data" -- sh -c '
		chroot "$1" "$2/prog" "$3" hold <hold >spun 3>&- &
		echo $! >inside.pid
		"$2/prog" "$3" >/dev/null
		read line <spun' sh "$ROOT" "$CT" "$CALLS" >record.out 2>&1 ||
		{ cat record.out; fail "perf record -a --call-graph $2"; }
	INSIDE_PID=$(cat inside.pid)
	kill -0 "$INSIDE_PID" 2>/dev/null || fail "the chroot process ended before its recording was read"
}
# end_live: the chroot process reads the end of its input and exits
end_live() {
	exec 3>&-
	timeout 60 tail --pid="$INSIDE_PID" -f /dev/null || fail "the chroot process did not end"
	INSIDE_PID=
}
record_live live fp
"$TEPHRA" script -q -F pid,ip,sym,dso live.data >live.tephra 2>live.err || { cat live.err; fail "tephra script"; }
check_names live.tephra "$INSIDE_PID"
perf script -F pid,ip,sym,dso -i live.data >live.perf 2>/dev/null || fail "perf script"
by_pid live.perf >live.perf.bypid
echo "perf script's libct frames (the chroot process is $INSIDE_PID):"; cat live.perf.bypid
# where perf names the host process's frames, so do we
grep -v " $INSIDE_PID " live.perf.bypid >perf.host
grep -v " $INSIDE_PID " live.tephra.bypid >tephra.host
diff perf.host tephra.host || fail "the host process's frames differ from perf script's"
# fold names them the same way (both processes are 'prog')
"$TEPHRA" fold -q live.data >live.folded 2>live.err || { cat live.err; fail "tephra fold"; }
grep -q ';ct_inside_leaf ' live.folded || fail "tephra fold: no ct_inside_leaf stack"
grep -q ';ct_outside_leaf ' live.folded || fail "tephra fold: no ct_outside_leaf stack"
if [ -x "$TOP/build/asan/tephra" ]; then
	"$TOP/build/asan/tephra" script -q -F pid,ip,sym,dso live.data >live.asan 2>live.err ||
		{ cat live.err; fail "ASan build: tephra script"; }
	# the test's own processes only: -a records the whole machine, and the objects of
	# another process that ended between the two reads are no longer under /proc/PID/root
	by_pid live.asan >live.asan.bypid
	cmp -s live.tephra.bypid live.asan.bypid || fail "ASan build: another output"
fi
end_live
# The same with DWARF: the unwinder reads the chroot's file too.
record_live dwarf dwarf
"$TEPHRA" script -q -F pid,ip,sym,dso dwarf.data >dwarf.tephra 2>dwarf.err || { cat dwarf.err; fail "tephra script (dwarf)"; }
check_names dwarf.tephra "$INSIDE_PID"
"$TEPHRA" fold -q dwarf.data >dwarf.folded 2>dwarf.err || { cat dwarf.err; fail "tephra fold (dwarf)"; }
grep -q ';main;ct_spin;ct_inside_work;ct_inside_leaf ' dwarf.folded ||
	{ grep 'ct_\(in\|out\)side' dwarf.folded; fail "tephra fold (dwarf): no main;ct_spin;ct_inside_work;ct_inside_leaf stack"; }
end_live

# 2. Both gone: by the build-id each MMAP2 carries, from the build-id cache.
perf --buildid-dir "$BID" record -q --buildid-mmap -a -g -e cpu-clock -F 1000 -o gone.data -- sh -c '
	chroot "$1" "$2/prog" "$3" >/dev/null &
	echo $! >inside.pid
	"$2/prog" "$3" >/dev/null
	wait' sh "$ROOT" "$CT" "$CALLS" >record.out 2>&1 ||
	{ cat record.out; skip "perf record --buildid-mmap not supported here"; }
INSIDE_PID=$(cat inside.pid)
perf --buildid-dir "$BID" buildid-cache -a "$ROOT$CT/lib/libct.so" >/dev/null 2>&1 ||
	fail "perf buildid-cache -a"
"$TEPHRA" script -q --buildid-dir "$BID" -F pid,ip,sym,dso gone.data >gone.tephra 2>gone.err ||
	{ cat gone.err; fail "tephra script"; }
check_names gone.tephra "$INSIDE_PID"
perf --buildid-dir "$BID" script -F pid,ip,sym,dso -i gone.data >gone.perf 2>/dev/null || fail "perf script"
by_pid gone.perf >gone.perf.bypid
diff gone.perf.bypid gone.tephra.bypid || fail "libct frames differ from perf script's"
INSIDE_PID=
echo "ok: each process named from its own libct.so (live: /proc/PID/root; gone: by build-id)"
