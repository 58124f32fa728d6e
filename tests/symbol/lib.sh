# lib.sh - shared by the symbol oracle tests (sourced).  Each test builds a small
# program, records it with the machine's perf, and checks that every unique callchain
# line perf script prints is what our lookup says (compare_with_perf.py).
set -u
LOOKUP=$TOP/build/tests/symbol_lookup
LOOKUP_ASAN=$TOP/build/asan/tests/symbol_lookup
PROGS=$TOP/tests/symbol/progs
BID=$TEST_TMP/buildid-cache     # private perf build-id cache, so tests don't share ~/.debug

. "$TOP/tests/skips.sh"
fail() { echo "FAIL: $*"; exit 1; }

need_perf() {
	need_tool python3
	[ -x "$LOOKUP" ] || fail "$LOOKUP not built"
	need_perf_record -e cpu-clock
}

# record OUT.data CMD... : a call-graph recording into the private build-id cache.
record() {
	local out=$1; shift
	perf --buildid-dir "$BID" record -q -e cpu-clock -F 4000 -g -o "$out" -- "$@" \
		>"$TEST_TMP/record.out" 2>&1 || { cat "$TEST_TMP/record.out"; fail "perf record $*"; }
}

# compare DATA [lookup options...] : perf script vs our lookup (plain and ASan builds).
# Leaves perf's text in DATA.script for extra checks.  $PERF_SCRIPT_OPTS (an array, if
# set) goes to perf script.
compare() {
	local data=$1; shift
	local extra=()
	[ -n "${PERF_SCRIPT_OPTS+x}" ] && extra=("${PERF_SCRIPT_OPTS[@]}")
	perf --buildid-dir "$BID" script "${extra[@]}" -i "$data" >"$data.script" 2>/dev/null ||
		fail "perf script -i $data"
	perf --buildid-dir "$BID" buildid-list -i "$data" >"$data.bids" 2>/dev/null ||
		fail "perf buildid-list -i $data"
	python3 "$TOP/tests/symbol/compare_with_perf.py" "$data.script" "$data.bids" \
		"$LOOKUP" --buildid-dir "$BID" "$@" || fail "lookups differ from perf script"
	if [ -x "$LOOKUP_ASAN" ]; then
		python3 "$TOP/tests/symbol/compare_with_perf.py" "$data.script" "$data.bids" \
			"$LOOKUP_ASAN" --buildid-dir "$BID" "$@" >/dev/null ||
			fail "ASan build: lookups differ or sanitizer error"
	fi
}

# expect_line DATA REGEX : perf's own output must contain such a callchain line, so a
# test cannot pass by comparing nothing of interest.
expect_line() {
	grep -Eq "$2" "$1.script" || { echo "perf script has no line matching: $2"; fail "workload did not exercise the case"; }
}
