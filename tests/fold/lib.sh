# lib.sh - shared by tests/fold/*.test.sh (sourced, not a test itself).
# fold_check NAME "OPTIONS" INPUT EXPECTED: runs the fold-text driver (plain build and,
# when built, the ASan+UBSan build) on INPUT with OPTIONS and compares its output byte
# for byte with EXPECTED.  INPUT and EXPECTED are printf %b strings (\t, \n, \0 work).
# EXPECTED is written by hand from the rules in docs/folding.md, never produced by us.
# FOLD_TEXT_DRIVER=PROGRAM runs the cases through another program taking the same
# options (e.g. a wrapper around stackcollapse-perf.pl, to check the expectations
# against the reference by hand; the test suite itself never depends on it).
set -u
. "$TOP/tests/skips.sh"
DRIVER=${FOLD_TEXT_DRIVER:-$TOP/build/fold/fold-text}
DRIVER_ASAN=$TOP/build/asan/fold/fold-text
if [ ! -x "$DRIVER" ]; then
	echo "build/fold/fold-text is not built (run make)"
	exit 77
fi
DRIVERS=("$DRIVER")
[ -z "${FOLD_TEXT_DRIVER:-}" ] && [ -x "$DRIVER_ASAN" ] && DRIVERS+=("$DRIVER_ASAN")
failures=0

fold_check() {
	local name=$1 opts=$2 input=$3 expected=$4 d
	printf '%b' "$input" >"$TEST_TMP/in"
	printf '%b' "$expected" >"$TEST_TMP/expected"
	for d in "${DRIVERS[@]}"; do
		# shellcheck disable=SC2086 # OPTIONS is a word list on purpose
		if ! "$d" $opts "$TEST_TMP/in" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
			echo "FAIL $name ($d $opts): exit status $?"
			cat "$TEST_TMP/err"
			failures=$((failures + 1))
			continue
		fi
		if ! cmp -s "$TEST_TMP/out" "$TEST_TMP/expected"; then
			echo "FAIL $name ($d $opts):"
			diff -u "$TEST_TMP/expected" "$TEST_TMP/out" | cat -A | head -30
			failures=$((failures + 1))
		fi
	done
}

fold_done() {
	if [ "$failures" -gt 0 ]; then
		echo "$failures case(s) failed"
		exit 1
	fi
	echo "all cases passed"
	exit 0
}
