#!/usr/bin/env bash
# The stack-quality block of frame-pointer recordings (perf record -g): a program built
# with -fomit-frame-pointer, and Debian's python3 (built without frame pointers), give
# stacks that do not reach their thread's start; tephra fold, script, flamegraph and stat
# must say so on stderr with numbers equal to what the test counts in the machine's
# `perf script` output (tests/quality/lib.sh fp_expect: stacks reaching a thread root,
# runs of [unknown], stacks cut at the frame limit or --max-stack, where chains break and
# in which object), name the object that broke the chain and hint at DWARF.  The same
# program built with frame pointers reaches its roots.  --compat and -q: no block, the
# same output.  Exit status 0 throughout.
. "$TOP/tests/quality/lib.sh"
need_perf
WL=$TOP/tests/workloads
cc -O1 -g -pthread -fno-omit-frame-pointer -o "$TEST_TMP/threads-fp" "$WL/threads.c" || exit 1
cc -O1 -g -pthread -fomit-frame-pointer -o "$TEST_TMP/threads-nofp" "$WL/threads.c" || exit 1
HINT='record with tephra record'"'"'s default (DWARF), or perf record --call-graph dwarf'

# block FILE: the quality block in FILE (heading and indented lines); body: without heading
block() {
	awk '/: stack quality of / { on = 1; print; next } on && /^ / { print; next } { on = 0 }' "$1"
}
body() { block "$1" | tail -n +2; }
# fold NAME DATA [OPTIONS...]: tephra fold's stdout and stderr into NAME.fold/.err
fold() {
	local name=$1 data=$2; shift 2
	"$TEPHRA" fold "$@" "$data" >"$TEST_TMP/$name.fold" 2>"$TEST_TMP/$name.err" ||
		fail "$name: tephra fold $* exited with $?: $(head -n 3 "$TEST_TMP/$name.err")"
}
# user_share EXPECT KEY: "N U" of an fp_expect line "KEY: N of U user stacks"
user_share() { sed -n "s/^  $2[^:]*: \([0-9]*\) of \([0-9]*\) user stacks.*/\1 \2/p" "$1"; }

# 1. without frame pointers: chains broken after the program's own frames
record "$TEST_TMP/nofp.data" -g -D 20 -- "$TEST_TMP/threads-nofp" 300
fold nofp "$TEST_TMP/nofp.data"
cat "$TEST_TMP/nofp.err"
fp_expect "$TEST_TMP/nofp.data" >"$TEST_TMP/nofp.exp"
fp_check nofp "$TEST_TMP/nofp.err" "$TEST_TMP/nofp.exp"
grep -q "^  chain broken after a frame in: .*: $TEST_TMP/threads-nofp [0-9]" "$TEST_TMP/nofp.err" ||
	fail "nofp: the program built without frame pointers is not named first where chains break"
grep -qF "$HINT" "$TEST_TMP/nofp.err" || fail "nofp: no hint to record with DWARF"
read -r rooted user <<<"$(user_share "$TEST_TMP/nofp.exp" 'reach a thread root')"
[ $((2 * rooted)) -lt "$user" ] || fail "nofp: perf script shows $rooted of $user stacks reaching a root (built without frame pointers?)"
# what the user sees in the folded stacks: no worker reaches start_thread
wrooted=$(worker_rooted "$TEST_TMP/nofp.fold")
[ "$wrooted" -eq 0 ] || fail "nofp: $wrooted samples of the workers reached start_thread without frame pointers"

# 2. the same program with frame pointers: its stacks reach start_thread
record "$TEST_TMP/fp.data" -g -D 20 -- "$TEST_TMP/threads-fp" 300
fold fp "$TEST_TMP/fp.data"
cat "$TEST_TMP/fp.err"
fp_expect "$TEST_TMP/fp.data" >"$TEST_TMP/fp.exp"
fp_check fp "$TEST_TMP/fp.err" "$TEST_TMP/fp.exp"
read -r rooted user <<<"$(user_share "$TEST_TMP/fp.exp" 'reach a thread root')"
[ $((10 * rooted)) -ge $((9 * user)) ] || fail "fp: perf script shows only $rooted of $user stacks reaching a root"
[ "$(worker_rooted "$TEST_TMP/fp.fold")" -gt 0 ] || fail "fp: no worker's folded stack through start_thread"

# 3. Debian's python3 (no frame pointers): chains broken in the interpreter
PY=/usr/bin/python3
if [ -x "$PY" ]; then
	record "$TEST_TMP/py.data" -g -- "$PY" -c '
import time
def f(n):
    return n if n < 2 else f(n - 1) + f(n - 2)
end = time.process_time() + 0.3
while time.process_time() < end:
    f(18)'
	fold py "$TEST_TMP/py.data"
	cat "$TEST_TMP/py.err"
	fp_expect "$TEST_TMP/py.data" >"$TEST_TMP/py.exp"
	fp_check py "$TEST_TMP/py.err" "$TEST_TMP/py.exp"
	pyreal=$(readlink -f "$PY")
	grep -q "^  chain broken after a frame in: .*: $pyreal [0-9]" "$TEST_TMP/py.err" ||
		fail "py: $pyreal is not named first where chains break"
	grep -qF "$HINT" "$TEST_TMP/py.err" || fail "py: no hint to record with DWARF"
else
	echo "no $PY: the python3 part is skipped"
fi

# 4. --max-stack: stacks cut at it are counted (and chains are judged on what is left)
# (a worker's whole stack is at least its spin_a/spin_b and start_thread)
fold max1 "$TEST_TMP/fp.data" --max-stack 1
fp_expect "$TEST_TMP/fp.data" 1 >"$TEST_TMP/max1.exp"
fp_check max1 "$TEST_TMP/max1.err" "$TEST_TMP/max1.exp"
read -r cut user <<<"$(user_share "$TEST_TMP/max1.exp" 'cut at the frame limit')"
[ $((2 * cut)) -gt "$user" ] || fail "max1: perf script shows only $cut of $user stacks longer than 1 frame"

# 5. -q and --compat: no block; -q does not change the stacks
fold nofp-q "$TEST_TMP/nofp.data" -q
[ -s "$TEST_TMP/nofp-q.err" ] && fail "fold -q printed: $(head -n 2 "$TEST_TMP/nofp-q.err")"
cmp -s "$TEST_TMP/nofp.fold" "$TEST_TMP/nofp-q.fold" || fail "fold -q changed the folded stacks"
fold nofp-compat "$TEST_TMP/nofp.data" --compat
[ -s "$TEST_TMP/nofp-compat.err" ] && fail "fold --compat printed: $(head -n 2 "$TEST_TMP/nofp-compat.err")"
for opt in -q --compat; do
	"$TEPHRA" flamegraph $opt "$TEST_TMP/nofp.data" -o "$TEST_TMP/q.svg" 2>"$TEST_TMP/fg$opt.err" ||
		fail "flamegraph $opt failed"
	[ -s "$TEST_TMP/fg$opt.err" ] && fail "flamegraph $opt printed: $(head -n 2 "$TEST_TMP/fg$opt.err")"
done

# 6. script, flamegraph, stat: the same block; script's stdout stays perf script's
for d in nofp py; do
	[ -f "$TEST_TMP/$d.data" ] || continue
	"$TEPHRA" script "$TEST_TMP/$d.data" >"$TEST_TMP/$d.script" 2>"$TEST_TMP/$d.script.err" ||
		fail "$d: tephra script failed"
	perf script -i "$TEST_TMP/$d.data" 2>/dev/null | cmp -s - "$TEST_TMP/$d.script" ||
		fail "$d: tephra script's stdout differs from perf script's"
	"$TEPHRA" flamegraph "$TEST_TMP/$d.data" -o "$TEST_TMP/$d.svg" 2>"$TEST_TMP/$d.fg.err" ||
		fail "$d: tephra flamegraph failed"
	for cmd in script fg; do
		grep -q "^tephra $([ $cmd = fg ] && echo flamegraph || echo script): stack quality of " \
			"$TEST_TMP/$d.$cmd.err" || fail "$d: $cmd: no block"
		[ "$(body "$TEST_TMP/$d.$cmd.err")" = "$(body "$TEST_TMP/$d.err")" ] ||
			fail "$d: $cmd's block differs from fold's: $(diff <(body "$TEST_TMP/$d.err") <(body "$TEST_TMP/$d.$cmd.err") | head -n 4)"
	done
	"$TEPHRA" stat "$TEST_TMP/$d.data" >"$TEST_TMP/$d.stat" || fail "$d: tephra stat failed"
	grep -q '^stack quality (frame-pointer call graphs):' "$TEST_TMP/$d.stat" || fail "$d: stat: no section"
	for key in 'samples:' 'reach a thread root' 'runs of \[unknown\]' 'cut at the frame limit'; do
		[ "$(grep "^  $key" "$TEST_TMP/$d.stat")" = "$(grep "^  $key" "$TEST_TMP/$d.err")" ] ||
			fail "$d: stat and fold disagree on '$key'"
	done
done

# 7. the ASan build prints the same
if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" fold "$TEST_TMP/nofp.data" >"$TEST_TMP/asan.fold" 2>"$TEST_TMP/asan.err" ||
		fail "ASan fold failed: $(head -n 5 "$TEST_TMP/asan.err")"
	cmp -s "$TEST_TMP/nofp.err" "$TEST_TMP/asan.err" || fail "ASan build reports differently"
	"$TEPHRA_ASAN" stat "$TEST_TMP/nofp.data" >/dev/null 2>"$TEST_TMP/stat-asan.err" ||
		fail "ASan stat failed: $(head -n 5 "$TEST_TMP/stat-asan.err")"
fi
finish
