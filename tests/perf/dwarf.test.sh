# dwarf: `perf record --call-graph dwarf` (user frames unwound from the sampled registers
# and stack, perf 6.1 style, with inlined functions of unwound frames) on a workload whose
# hot path is only its own code; and the same workload with frame pointers, whose
# 300-deep recursion meets perf's 127-frame limit.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
record "$TEST_TMP/fp.data" -g -- "$WL/deep" 200
check_script deep-fp "$TEST_TMP/fp.data"
check_fold deep-fp "$TEST_TMP/fp.data" "" ""
awk '/^$/ { if (n > max) max = n; n = 0; next } /^\t/ { n++ } END { exit max == 127 ? 0 : 1 }' \
	"$TEST_TMP/deep-fp.tephra" || fail "deep-fp: expected callchains cut at 127 frames"
# -D: start sampling once the dynamic loader is done (its symbol aliases, named at
# unwound frames through DWARF/symtab lookups, belong to the symbol module's tests)
record "$TEST_TMP/dwarf.data" --call-graph dwarf -D 30 -- "$WL/deep" 130
check_script deep-dwarf "$TEST_TMP/dwarf.data"
check_fold deep-dwarf "$TEST_TMP/dwarf.data" "" ""
grep -q ';deep;deep;deep' "$TEST_TMP/deep-dwarf.fold" || fail "deep-dwarf: no unwound deep;deep;deep frames"
check_script deep-dwarf-max-stack "$TEST_TMP/dwarf.data" --max-stack 200
if [ -x "${TEPHRA_ASAN:-}" ]; then
	TEPHRA_BIN=$TEPHRA_ASAN check_script deep-dwarf-asan "$TEST_TMP/dwarf.data"
fi
finish
