# workloads: `perf record --call-graph dwarf` of every bundled workload (C recursion into
# libc, C++ templates/exceptions/lambda, two named threads, fork+exec, Rust, a recursion
# deeper than 127 frames), recorded during the test.  `tephra script` must print what
# `perf script` prints, byte for byte, including the functions perf 6.1 lists as
# `name+0xoff (inlined)` at unwound frames, and with `--no-inline`, `-F +srcline` and
# `--max-stack`.  And `tephra fold` of each recording keeps the invariants of
# tests/perf/lib.sh fold_invariants (the same with -q, as tephra script's text folds, on
# one CPU).
# The one allowance (compare_blocks.py): a sample whose --no-inline blocks differ as
# well, i.e. the two unwinders walked different frames (src/unwind's business, listed
# by name, at most 1% of the samples); inline naming never explains such a block.
. "$TOP/tests/perf/lib.sh"
DWARF_HERE=$TOP/tests/perf-dwarf
need_perf
build_workloads

# check_dwarf NAME DATA [OPTIONS...]: with and without --no-inline.
check_dwarf() {
	local name=$1 data=$2; shift 2
	local v
	for v in "" --no-inline; do
		perf script -i "$data" $v "$@" >"$TEST_TMP/$name$v.perf" 2>"$TEST_TMP/$name.perf.err" || {
			fail "$name: perf script $v failed: $(head -n 3 "$TEST_TMP/$name.perf.err")"; return; }
		"${TEPHRA_BIN:-$TEPHRA}" script -i "$data" $v "$@" >"$TEST_TMP/$name$v.tephra" \
			2>"$TEST_TMP/$name.tephra.err" || {
			fail "$name: tephra script $v failed: $(head -n 3 "$TEST_TMP/$name.tephra.err")"; return; }
	done
	[ -s "$TEST_TMP/$name.perf" ] || { fail "$name: perf script printed nothing"; return; }
	if cmp -s "$TEST_TMP/$name.perf" "$TEST_TMP/$name.tephra" &&
		cmp -s "$TEST_TMP/$name--no-inline.perf" "$TEST_TMP/$name--no-inline.tephra"; then
		echo "ok: $name: identical ($(wc -l <"$TEST_TMP/$name.perf") lines, --no-inline $(wc -l <"$TEST_TMP/$name--no-inline.perf"))"
		return
	fi
	echo "$name: not identical; sample by sample:"
	python3 "$DWARF_HERE/compare_blocks.py" "$TEST_TMP/$name.perf" "$TEST_TMP/$name.tephra" \
		"$TEST_TMP/$name--no-inline.perf" "$TEST_TMP/$name--no-inline.tephra" ||
		fail "$name: tephra script differs from perf script"
}

record "$TEST_TMP/recurse.data" --call-graph dwarf -- "$WL/recurse" 150
check_dwarf recurse "$TEST_TMP/recurse.data"
fold_invariants recurse "$TEST_TMP/recurse.data" "" ""
grep -q ' (inlined)$' "$TEST_TMP/recurse.perf" || fail "recurse: perf printed no inlined frame (nothing tested)"
# -F +srcline: each inline entry's own position ("file:line (inlined)"), call sites
# for the callers, "??:0" / ":0" where addr2line knows no file, kernel frames as
# [kernel.kallsyms][address]
check_dwarf recurse-srcline "$TEST_TMP/recurse.data" -F +srcline
grep -q '^  recurse\.c:[0-9]*$' "$TEST_TMP/recurse-srcline.perf" ||
	fail "recurse-srcline: perf printed no recurse.c line (nothing tested)"

record "$TEST_TMP/templates.data" --call-graph dwarf -- "$WL/templates" 150
check_dwarf templates "$TEST_TMP/templates.data"
grep -q '(anonymous namespace)::may_throw' "$TEST_TMP/templates.perf" ||
	fail "templates: perf script shows no (anonymous namespace)::may_throw frame"
fold_invariants templates "$TEST_TMP/templates.data" "" ""
fold_invariants templates-inline "$TEST_TMP/templates.data" - "" --inline
check_dwarf templates-srcline "$TEST_TMP/templates.data" -F +srcline

# -O2 C++ (symbol module's program, used as is): exceptions through libgcc_s without
# DWARF, _start in an arange gap after the unit's last range (no source line there)
if want_tool g++ "the -O2 C++ program"; then
	g++ -O2 -g -o "$TEST_TMP/cxx" "$TOP/tests/symbol/progs/cxx_templates.cpp" ||
		{ echo "FAIL: g++ cannot build tests/symbol/progs/cxx_templates.cpp"; exit 1; }
	record "$TEST_TMP/cxx.data" --call-graph dwarf -- "$TEST_TMP/cxx" 150
	check_dwarf cxx-srcline "$TEST_TMP/cxx.data" -F +srcline
	fold_invariants cxx "$TEST_TMP/cxx.data" "" ""
fi

record "$TEST_TMP/threads.data" --call-graph dwarf -- "$WL/threads" 150
check_dwarf threads "$TEST_TMP/threads.data"
fold_invariants threads "$TEST_TMP/threads.data" "-F +pid" "--tid" --tid
grep -q '^worker-a ' "$TEST_TMP/threads.perf" || fail "threads: no sample of thread worker-a"

record "$TEST_TMP/forkexec.data" --call-graph dwarf -- "$WL/forkexec" "$WL/recurse" 100
check_dwarf forkexec "$TEST_TMP/forkexec.data"
fold_invariants forkexec "$TEST_TMP/forkexec.data" "" ""

if [ -x "$WL/spin" ] || partial "rustc absent (tests/workloads/build.sh): the Rust workload not checked"; then
	record "$TEST_TMP/spin.data" --call-graph dwarf -- "$WL/spin" 150
	check_dwarf rust "$TEST_TMP/spin.data"
	fold_invariants rust "$TEST_TMP/spin.data" "" ""
	grep -q "(inlined)$" "$TEST_TMP/rust.perf" || fail "rust: perf printed no inlined frame (nothing tested)"
fi

# 300-deep recursion: the unwound part is cut at --max-stack (127 by default)
record "$TEST_TMP/deep.data" --call-graph dwarf -- "$WL/deep" 130
check_dwarf deep "$TEST_TMP/deep.data"
check_dwarf deep-max-stack-200 "$TEST_TMP/deep.data" --max-stack 200
check_dwarf deep-max-stack-40 "$TEST_TMP/deep.data" --max-stack 40
fold_invariants deep "$TEST_TMP/deep.data" "" ""
fold_invariants deep-max-stack-40 "$TEST_TMP/deep.data" "--max-stack 40" "" --max-stack 40
awk '/^$/ { if (n > max) max = n; n = 0; next } /^\t/ { n++ } END { exit max > 127 ? 0 : 1 }' \
	"$TEST_TMP/deep-max-stack-200.perf" || fail "deep: no callchain longer than 127 frames with --max-stack 200"

if [ -x "${TEPHRA_ASAN:-}" ]; then
	TEPHRA_BIN=$TEPHRA_ASAN check_dwarf templates-asan "$TEST_TMP/templates.data"
fi
finish
