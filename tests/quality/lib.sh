# lib.sh - shared by the tests/quality/*.test.sh stack-quality tests (sourced, not run).
# They record small workloads with the machine's perf, then check the numbers of
# tephra's stack-quality report against counts the test makes itself from `perf script`
# output (samples = header lines, frames = callchain lines, [unknown] frames = lines
# whose symbol is "[unknown]").
set -u
: "${TEPHRA:?}" "${TOP:?}" "${TEST_TMP:?}"
export LC_ALL=C
skip() { echo "$*"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
finish() { [ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }; exit 0; }

need_perf() {
	command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
	command -v cc >/dev/null 2>&1 || skip "no C compiler"
	perf record -q -N -o "$TEST_TMP/probe.data" --call-graph dwarf -- true >/dev/null 2>&1 ||
		skip "perf record --call-graph dwarf is not permitted here (kernel.perf_event_paranoid?)"
	rm -f "$TEST_TMP/probe.data"
}

# record OUT PERF-RECORD-ARGS... -- COMMAND...
record() {
	local out=$1; shift
	perf record -q -N -o "$out" "$@" >"$TEST_TMP/record.log" 2>&1 || {
		echo "perf record $* failed:"; cat "$TEST_TMP/record.log"; exit 1; }
}

# perf_counts DATA: "SAMPLES FRAMES UNKNOWN MARKERS CUT" from perf script's text.
# MARKERS: the "ffffffffffffffff [unknown] ([unknown])" lines perf 6.1 prints as the last
# frame of a user stack its unwinder could not finish for want of stack (tephra does not
# print them); CUT: samples ending with one.
perf_counts() {
	perf script -i "$1" 2>/dev/null | awk '
		/^\t/ { n++; last = $1; if ($2 == "[unknown]") u++; if ($1 == "ffffffffffffffff") m++; next }
		/^$/ { if (last == "ffffffffffffffff") cut++; last = ""; next }
		{ s++ }
		END { if (last == "ffffffffffffffff") cut++; print s + 0, n + 0, u + 0, m + 0, cut + 0 }'
}

# field FILE REGEX: the first number after REGEX on the first line matching it.
field() {
	sed -n "s/.*$2 *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1
}
