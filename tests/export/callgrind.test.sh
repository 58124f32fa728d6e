#!/usr/bin/env bash
# tephra export -f callgrind, read by callgrind_annotate (Valgrind's): on recordings
# made here with the machine's perf (cpu-clock; frame pointers with recursion, the
# same with --inline, DWARF with inlined functions) the program total and every
# function's inclusive cost (--inclusive=yes) equal what `tephra fold`'s stacks give
# (each stack's weight once per distinct function on it), and every call arc in the
# file joins adjacent frames of some folded stack (tests/export/callgrind_check.py).
. "$TOP/tests/perf/lib.sh"
need_perf
command -v callgrind_annotate >/dev/null 2>&1 || skip "callgrind_annotate is not installed (Debian: valgrind)"
build_workloads
X=$TOP/tests/export

# check NAME DATA [OPTIONS...]
check() {
	local name=$1 data=$2; shift 2
	"$TEPHRA" fold -q "$@" "$data" >"$TEST_TMP/$name.folded" || { fail "$name: tephra fold failed"; return; }
	"$TEPHRA" export -f callgrind -o "$TEST_TMP/$name.cg" "$@" "$data" 2>"$TEST_TMP/$name.err" ||
		{ fail "$name: tephra export failed: $(head -n 3 "$TEST_TMP/$name.err")"; return; }
	callgrind_annotate --inclusive=yes --threshold=100 "$TEST_TMP/$name.cg" >"$TEST_TMP/$name.ann" 2>"$TEST_TMP/$name.ann.err" ||
		{ fail "$name: callgrind_annotate failed: $(head -n 3 "$TEST_TMP/$name.ann.err")"; return; }
	grep -q WARNING "$TEST_TMP/$name.ann.err" && fail "$name: callgrind_annotate warns: $(head -n 3 "$TEST_TMP/$name.ann.err")"
	if out=$(python3 "$X/callgrind_check.py" "$TEST_TMP/$name.folded" "$TEST_TMP/$name.cg" "$TEST_TMP/$name.ann"); then
		echo "ok: $name: $out"
	else
		fail "$name: callgrind file differs from the folded stacks:"; echo "$out"
	fi
}

record "$TEST_TMP/fp.data" -e cpu-clock -F 4000 -g -- "$WL/recurse"
check fp "$TEST_TMP/fp.data"
check fp-inline "$TEST_TMP/fp.data" --inline
grep -q '^ *[0-9,]* (.*) *recurse.c:descend ' "$TEST_TMP/fp.ann" || fail "fp: no recurse.c:descend row (recursion, source file)"

cc -O2 -g -o "$TEST_TMP/inlines" "$TOP/tests/fold-dwarf/inlines.c" || exit 1
record "$TEST_TMP/dw.data" -e cpu-clock --call-graph dwarf -D 20 -- "$TEST_TMP/inlines" 5000000
check dwarf "$TEST_TMP/dw.data"
grep -q 'inlines.c:mix \[' "$TEST_TMP/dwarf.ann" || fail "dwarf: the inlined mix has no row"
finish
