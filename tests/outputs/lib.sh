# tests/outputs/lib.sh - shared by tests/outputs/*.test.sh (sourced, not run): the
# inputs every command needs, made in $TEST_TMP, and the commands that take -o, each
# run with OUT as its output (run_cmd).  docs/hostile.md, "Output files", says the rule.
set -u
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$1"; exit 77; }
[ -x "$TEPHRA" ] || fail "$TEPHRA not built"
cd "$TEST_TMP" || exit 1

LOOP='i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'

# Folded inputs, a perf.data of a shell loop (perf's cpu-clock), for the commands that
# read them.
make_inputs() {
	printf 'main;a;b 3\nmain;c 2\n' >a.folded
	printf 'main;a;b 1\nmain;c 4\n' >b.folded
	command -v perf >/dev/null || skip "perf not installed"
	perf record -q -e cpu-clock -F 999 -g -o perf.data -- \
		sh -c "$LOOP" >/dev/null 2>&1 ||
		skip "perf record does not work here"
	[ "$(perf script -i perf.data 2>/dev/null | grep -c cpu-clock)" -gt 0 ] ||
		fail "premise: perf.data holds no samples"
}

# The commands that take an output (name: what run_cmd NAME OUT runs).  grind ones only
# when Valgrind is there.
CMDS="flamegraph diff diff-folded heatmap export record-svg record-folded"
if command -v valgrind >/dev/null && [ -d "$TOP/build/grind/lib" ]; then
	CMDS="$CMDS grind grind-svg grind-nochildren"
fi

# run_cmd NAME OUT: runs command NAME writing OUT; stdout to NAME.out, stderr to
# NAME.err; returns its exit status.
run_cmd() {
	local name=$1 out=$2
	case $name in
	flamegraph) "$TEPHRA" flamegraph -o "$out" a.folded;;
	diff) "$TEPHRA" diff -o "$out" a.folded b.folded;;
	diff-folded) "$TEPHRA" diff --folded -o "$out" a.folded b.folded;;
	heatmap) "$TEPHRA" heatmap -o "$out" perf.data;;
	export) "$TEPHRA" export -f pprof -o "$out" perf.data;;
	record-svg) "$TEPHRA" record -q -d rec.data -o "$out" -- sh -c "$LOOP";;
	record-folded) "$TEPHRA" record -q -d rec.data -o rec.svg --folded "$out" -- sh -c "$LOOP";;
	grind) "$TEPHRA" grind -q --no-svg -o "$out" /bin/true;;
	grind-svg) "$TEPHRA" grind -q -o g.folded --svg="$out" /bin/true;;
	grind-nochildren) "$TEPHRA" grind -q --no-children --no-svg -o "$out" /bin/true;;
	*) fail "run_cmd: unknown $name";;
	esac >"${name}.out" 2>"${name}.err"
}
