#!/usr/bin/env bash
# tephra record as a user runs it: by default perf unwinds with DWARF (--call-graph
# dwarf,16384), so Debian's python3 and a program built with -fomit-frame-pointer get
# stacks that reach their thread's start; --fp records frame pointers, whose chains
# break in those programs.  After recording, the stack-quality block of either kind is
# on stderr (-q: none; --fp --compat: none) and the exit status is 0.  The frame-pointer
# block's figures equal the counts the test makes from the machine's perf script
# (tests/quality/lib.sh fp_expect); for the DWARF recordings, perf script's own
# unwinding must show the stacks reaching their roots (its walks and tephra's may end
# apart in a sample or two: unwinder parity is tests/unwind's, docs/stack-quality.md).
. "$TOP/tests/quality/lib.sh"
need_perf
cc -O1 -g -pthread -fomit-frame-pointer -o "$TEST_TMP/threads-nofp" "$TOP/tests/workloads/threads.c" || exit 1
cd "$TEST_TMP" || exit 1

# rec NAME [OPTIONS...] -- COMMAND...: tephra record into NAME.data/.svg/.folded,
# stdout and stderr into NAME.out/.err
rec() {
	local name=$1; shift
	"$TEPHRA" record -d "$name.data" -o "$name.svg" --folded "$name.folded" "$@" \
		>"$name.out" 2>"$name.err" || fail "$name: tephra record $* exited with $?: $(tail -n 3 "$name.err")"
}
# dwarf_roots NAME: perf script's unwinding of NAME.data has 90% of its user stacks
# reaching a thread root
dwarf_roots() {
	local rooted user
	fp_expect "$1.data" >"$1.exp"
	read -r rooted user <<<"$(sed -n 's/^  reach a thread root[^:]*: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$1.exp")"
	[ "$user" -gt 0 ] && [ $((10 * rooted)) -ge $((9 * user)) ] ||
		fail "$1: DWARF: perf script shows only $rooted of $user stacks reaching a root"
}

# 1. the default: DWARF; the workers' stacks reach start_thread
rec dwarf -- ./threads-nofp 300
cat dwarf.err
grep -q -- '--call-graph dwarf,16384 -o dwarf.data' dwarf.err || fail "dwarf: perf was not asked for DWARF call graphs"
grep -q '^tephra record: stack quality of dwarf.data (DWARF call graphs' dwarf.err || fail "dwarf: no DWARF block"
dwarf_roots dwarf
workers=$(awk '/^worker/ { n += $NF } END { print n + 0 }' dwarf.folded)
rooted=$(awk '/^worker.*;start_thread;/ { n += $NF } END { print n + 0 }' dwarf.folded)
[ "$workers" -gt 0 ] && [ $((10 * rooted)) -ge $((9 * workers)) ] ||
	fail "dwarf: only $rooted of the workers' $workers ns are under start_thread"

# 2. --fp: the chains break after the program's frames, and the block says so
rec fp --fp -- ./threads-nofp 300
cat fp.err
grep -q -- ' -g -o fp.data' fp.err || fail "fp: perf was not asked for frame pointers (-g)"
fp_expect fp.data >fp.exp
fp_check fp fp.err fp.exp
grep -q "^  chain broken after a frame in: .*: $TEST_TMP/threads-nofp [0-9]" fp.err ||
	fail "fp: the program is not named first where chains break"
rooted=$(worker_rooted fp.folded)
[ "$rooted" -eq 0 ] || fail "fp: $rooted samples of the workers reached start_thread without frame pointers"

# 3. -q, and --fp --compat: no block
rec quiet -q -- ./threads-nofp 50
grep -q 'stack quality' quiet.err && fail "-q: a block: $(grep -A1 'stack quality' quiet.err)"
rec compat --fp --compat -- ./threads-nofp 50
grep -q 'stack quality' compat.err && fail "--fp --compat: a block: $(grep -A1 'stack quality' compat.err)"

# 4. Debian's python3: DWARF reaches the roots, frame pointers do not
PY=/usr/bin/python3
if [ -x "$PY" ]; then
	cat >load.py <<'PY'
import time
def f(n):
    return n if n < 2 else f(n - 1) + f(n - 2)
end = time.process_time() + 0.3
while time.process_time() < end:
    f(18)
PY
	rec py -- "$PY" load.py
	cat py.err
	grep -q '^tephra record: stack quality of py.data (DWARF call graphs' py.err || fail "py: no DWARF block"
	dwarf_roots py
	rec pyfp --fp -- "$PY" load.py
	cat pyfp.err
	fp_expect pyfp.data >pyfp.exp
	fp_check pyfp pyfp.err pyfp.exp
	grep -q "^  chain broken after a frame in: .*: $(readlink -f "$PY") [0-9]" pyfp.err ||
		fail "pyfp: python3 is not named first where chains break"
else
	echo "no $PY: the python3 part is skipped"
fi
finish
