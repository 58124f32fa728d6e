#!/usr/bin/env bash
# Files a recording names (docs/hostile.md, "Files a recording names"; "Whose files"):
#  - the recorded program replaced by a FIFO, the build-id cache's copy of libc by a
#    FIFO, a JIT's /tmp/perf-PID.map replaced by a FIFO: script, fold, stat, report,
#    flamegraph and export must finish (before: blocked forever in open()), name the file
#    in one warning, and `tephra script` must print what perf script prints (perf skips
#    the FIFO object too; perf 6.1 itself blocks on a FIFO map file, so there the frames
#    must be what perf prints with no map file at all); script's and fold's
#    stack-quality block counts the skipped object;
#  - the program replaced by a character device: not opened (a warning says so);
#  - a perf.data owned by another user: refused as perf refuses it, read with -f;
#  - a map file owned by another user: not read (perf 6.1 reads it), read with -f, and
#    then the frames are perf's.
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
command -v perf >/dev/null || skip "perf is not installed"
perf record -q -N -o probe.data -- true >/dev/null 2>&1 || skip "perf record is not permitted here"
[ "$(id -u)" = 0 ] || skip "needs root (chown to another user, mknod)"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
"$TOP/tests/workloads/build.sh" "$TEST_TMP/wl" >/dev/null 2>&1 || fail "building the workloads failed"
export HOME=$TEST_TMP/home   # an empty build-id cache: perf and tephra look only where we say
mkdir -p "$HOME"

# perf_script NAME DATA: perf's text (perf must not hang either, or it is no oracle)
perf_script() {
	timeout 120 perf script -i "$2" > "$1.perf" 2>/dev/null || fail "perf script $2 failed or hung"
	[ -s "$1.perf" ] || fail "perf script $2 printed nothing"
}
# all_commands FILE-IN-WARNING DATA [OPTIONS]: every reader finishes, exit 0, warns
all_commands() {
	local name=$1 data=$2; shift 2
	for cmd in "script -i" fold stat report "flamegraph -o g.svg" "export -f callgrind -o g.cg"; do
		# shellcheck disable=SC2086
		expect 0 "" "$T" $cmd "$data" "$@"
		[ "$cmd" = stat ] && continue   # its stack-quality pass gives no warnings
		grep -q "^warning: $name: not a regular file" err.txt ||
			{ head -n 5 err.txt; fail "$cmd $data: no warning naming $name"; }
		case $cmd in "script -i"|fold)   # and a line in the stack-quality block
			grep -q "^  objects whose file was not opened .*: 1, the first $name: not a regular file" err.txt ||
				{ tail -n 4 err.txt; fail "$cmd $data: no line in the quality block"; }
		esac
	done
}

cp "$TEST_TMP/wl/recurse" prog
perf record -q -N -g -o fp.data ./prog 150 >/dev/null 2>&1 || fail "perf record failed"
perf record -q -N --call-graph dwarf -o dwarf.data ./prog 150 >/dev/null 2>&1 ||
	fail "perf record failed"
mv prog prog.real

# 1. the program itself is a FIFO
mkfifo prog
all_commands "$TEST_TMP/prog" fp.data
all_commands "$TEST_TMP/prog" dwarf.data
perf_script fifo fp.data
expect 0 "" "$T" script -i fp.data
cmp -s fifo.perf out.txt || { diff fifo.perf out.txt | head; fail "script with a FIFO program != perf script"; }
grep -q '\[unknown\] (.*/prog)' out.txt || fail "no [unknown] frame in the FIFO program"

# 2. a character device: judged by stat, never opened
rm prog && mknod prog c 1 3
expect 0 "" "$T" fold fp.data
grep -q "^warning: $TEST_TMP/prog: not a regular file (a character device)" err.txt ||
	fail "no warning for the device"
rm prog

# 3. perf's build-id cache holds a FIFO where its copy of libc would be
mv prog.real prog
perf record -q -g -o cached.data ./prog 150 >/dev/null 2>&1 || fail "perf record failed"
copy=$(find "$HOME/.debug" -path '*/libc.so*/elf' -type f | head -n 1)
[ -n "$copy" ] || fail "perf record left no copy of libc in $HOME/.debug"
rm "$copy" && mkfifo "$copy"
all_commands "$HOME/.debug/.*/elf" cached.data   # (reached through .build-id)
perf_script cached cached.data
expect 0 "" "$T" script -i cached.data
cmp -s cached.perf out.txt || { diff cached.perf out.txt | head; fail "script with a FIFO in the cache != perf script"; }
grep -q ' __libc_start_call_main+0x[0-9a-f]* (.*libc.so' out.txt || fail "libc's frames unnamed (the system's libc is there)"

# 4. a perf.data of another user: perf refuses it (the oracle), so must we; -f reads it
cp fp.data other.data && chown nobody other.data
perf script -i other.data > /dev/null 2> perf.err && fail "perf script read another user's file"
grep -q "not owned by current user or root (use -f to override)" perf.err ||
	fail "perf's refusal changed: $(cat perf.err)"
for cmd in "script -i" fold stat report "flamegraph -o g.svg" "export -f callgrind -o g.cg"; do
	# shellcheck disable=SC2086
	expect 1 "other.data: not owned by current user or root (use -f to override)" "$T" $cmd other.data
done
perf script -f -i other.data > other.perf 2>/dev/null
expect 0 "" "$T" script -f -i other.data
cmp -s other.perf out.txt || fail "script -f != perf script -f"
for cmd in fold report "flamegraph -o g.svg"; do
	# shellcheck disable=SC2086
	expect 0 "" "$T" $cmd -f other.data
done
expect 0 "" "$T" stat --force other.data
expect 0 "" "$T" export --force -f callgrind -o g.cg other.data
expect 0 "" "$T" fold - < other.data    # standard input is not checked (as perf)

# 5. a JIT's map file (x86-64 only: the workload writes machine code)
if [ "$(uname -m)" = x86_64 ]; then
	perf record -q -N -g -o jit.data -- "$TEST_TMP/wl/jit" 150 > jit.log 2>&1 || fail "perf record jit failed"
	map=$(grep -o '/tmp/perf-[0-9]*\.map' jit.log | head -n 1)
	[ -f "$map" ] || fail "the jit workload left no map file"
	trap 'rm -f "$map"' EXIT
	perf_script jit jit.data
	grep -q jitted_spin_loop jit.perf || fail "perf names no jitted frame"
	cp "$map" map.keep
	chown nobody "$map"
	expect 0 "" "$T" script -i jit.data
	grep -q "^warning: $map: not owned by current user or root" err.txt || fail "no warning for another user's map"
	grep -q jitted_spin_loop out.txt && fail "another user's map file was read"
	expect 0 "" "$T" script -f -i jit.data
	cmp -s jit.perf out.txt || fail "script -f with another user's map != perf script"
	rm "$map"
	perf_script nomap jit.data       # the oracle for a map file that cannot be read
	mkfifo "$map"
	for cmd in "script -i" fold report; do
		# shellcheck disable=SC2086
		expect 0 "" "$T" $cmd jit.data
		grep -q "^warning: $map: not a regular file (a FIFO)" err.txt || fail "$cmd: no warning for a FIFO map"
	done
	expect 0 "" "$T" script -i jit.data
	cmp -s nomap.perf out.txt || fail "script with a FIFO map != perf script without the map"
	rm -f "$map"
fi
echo "ok: $ncases cases"
