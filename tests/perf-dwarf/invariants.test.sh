# invariants: what tephra fold prints depends on the recording and the options, nothing
# else (tests/perf/lib.sh fold_invariants: the same with -q, the same as tephra script's
# text folded by stackcollapse-perf.pl's rules, the same on one CPU), on C++ template
# code whose inline frames addr2line names by memory of the questions asked before
# (sort_pairs.cpp): DWARF call graphs with the default names, --inline, --srcline and
# --pid; frame pointers with --inline.  The other recordings of the perf, perf-dwarf and
# fold-dwarf tests go through the same checks (check_fold, and their own calls).
. "$TOP/tests/perf/lib.sh"
need_perf
need_tool g++
g++ -O2 -g -o "$TEST_TMP/sort_pairs" "$TOP/tests/perf-dwarf/sort_pairs.cpp" || exit 1

record "$TEST_TMP/dwarf.data" -e cpu-clock -F 2000 --call-graph dwarf -- "$TEST_TMP/sort_pairs" 400
"$TEPHRA" script -q "$TEST_TMP/dwarf.data" >"$TEST_TMP/dwarf.txt" || fail "tephra script failed"
# the case at stake: inline frames whose caller is the recursive __introsort_loop (400 ms
# of the workload's CPU time at 2000 Hz: hundreds of samples in the sort, by construction)
perf script -i "$TEST_TMP/dwarf.data" 2>/dev/null | grep -q '__introsort_loop<.*(inlined)$' ||
	{ echo "FAIL: perf script shows no inline frame under __introsort_loop"; exit 1; }
grep -q '__introsort_loop<.*(inlined)$' "$TEST_TMP/dwarf.txt" ||
	fail "tephra script shows no inline frame under __introsort_loop, perf script does"
fold_invariants sort-dwarf "$TEST_TMP/dwarf.data" "" ""
fold_invariants sort-dwarf-inline "$TEST_TMP/dwarf.data" - "" --inline
fold_invariants sort-dwarf-srcline "$TEST_TMP/dwarf.data" - "" --srcline
fold_invariants sort-dwarf-pid "$TEST_TMP/dwarf.data" "-F +pid" "--pid" --pid
# and the names are perf's: the sort's stacks as perf script's text folds them (the rest
# is left to the unwinder oracles: perf misreads a return address now and then, e.g. in
# exit handlers, see tests/perf-dwarf/compare_blocks.py)
perf script -i "$TEST_TMP/dwarf.data" 2>/dev/null | python3 "$HERE/collapse.py" |
	grep '__introsort_loop' >"$TEST_TMP/sort.expected"
[ -s "$TEST_TMP/sort.expected" ] || fail "perf script: no __introsort_loop stack"
"$TEPHRA" fold -q --compat "$TEST_TMP/dwarf.data" | grep '__introsort_loop' >"$TEST_TMP/sort.fold"
same_bytes "sort stacks: fold -q --compat == perf script | collapse" "$TEST_TMP/sort.expected" "$TEST_TMP/sort.fold"
if [ -x "${TEPHRA_ASAN:-}" ]; then
	TEPHRA_BIN=$TEPHRA_ASAN fold_invariants sort-dwarf-asan "$TEST_TMP/dwarf.data" "" ""
fi

g++ -O2 -g -fno-omit-frame-pointer -o "$TEST_TMP/sort_pairs_fp" "$TOP/tests/perf-dwarf/sort_pairs.cpp" || exit 1
record "$TEST_TMP/fp.data" -e cpu-clock -F 2000 -g -- "$TEST_TMP/sort_pairs_fp" 300
fold_invariants sort-fp "$TEST_TMP/fp.data" "" ""
fold_invariants sort-fp-inline "$TEST_TMP/fp.data" - "" --inline
finish
