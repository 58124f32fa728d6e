# tests/skips.sh - the skip policy, sourced by every test lib and by the test scripts
# that source none (docs/testing.md).
#
# Strict mode (TEPHRA_STRICT_SKIPS=1, set by `make check` after scripts/install-deps
# test): every tool the tests need is installed, so a test that cannot run is broken,
# not excused.  tests/run-all then counts an exit 77 as a failure unless the test's name
# is in tests/skip-allowed, and a test that would drop a part of its checks (partial)
# fails at once.  Not strict (tests/run-all by hand on a machine without the deps): both
# are skips, the partial one a visible "note:" line.

# TEST_NAME is AREA/NAME (tests/run-all sets it; by hand, from the script's path).
: "${TEST_NAME:=$(basename "$(dirname "$0")")/$(basename "$0" .test.sh)}"

strict_skips() { [ "${TEPHRA_STRICT_SKIPS:-0}" = 1 ]; }

# skip_allowed [PART]: tests/skip-allowed (NAME<TAB>REASON lines) names the test, or
# with PART the part NAME:PART of it.
skip_allowed() {
	[ -f "$TOP/tests/skip-allowed" ] &&
		cut -f1 "$TOP/tests/skip-allowed" | grep -qxF -e "$TEST_NAME" ${1:+-e "$TEST_NAME:$1"}
}

# skip WHY: the whole test cannot run here (exit 77; tests/run-all judges it).
skip() { echo "$*"; exit 77; }

# partial [--part=PART] WHY: a part of the test cannot run here.  Not strict (or the
# test or NAME:PART allowlisted): says "note: WHY" and returns 1 so the caller leaves the
# part out; strict: fails the test.
partial() {
	local part=
	case ${1:-} in --part=*) part=${1#--part=}; shift;; esac
	if strict_skips && ! skip_allowed "$part"; then
		echo "FAIL: $* (a check left out: TEPHRA_STRICT_SKIPS=1, see docs/testing.md)"
		exit 1
	fi
	echo "note: $*"
	return 1
}

# need_tool NAME [HINT]: the whole test needs NAME on PATH.
need_tool() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed${2:+ ($2)}"
}

# want_tool NAME WHAT [HINT]: a part of the test (WHAT) needs NAME; returns 1 without it
# (after partial's note) so the caller leaves the part out.
want_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	partial "$1 is not installed${3:+ ($3)}: $2 not checked"
}

# perf_can_record [PERF-RECORD-OPTIONS...]: a tiny recording works here (returns 1 with
# perf's own error in $PERF_PROBE_ERR when it does not).
perf_can_record() {
	local probe=${TEST_TMP:-/tmp}/perf-probe.$$
	PERF_PROBE_ERR=
	command -v perf >/dev/null 2>&1 || { PERF_PROBE_ERR="perf is not installed (Debian: linux-perf)"; return 1; }
	if perf record -q -N -o "$probe.data" "$@" -- true >"$probe.log" 2>&1; then
		rm -f "$probe.data" "$probe.log"
		return 0
	fi
	PERF_PROBE_ERR="perf record $* failed: $(head -c 600 "$probe.log")"
	rm -f "$probe.data" "$probe.log"
	return 1
}

# need_perf_record [PERF-RECORD-OPTIONS...]: the whole test needs perf to record.  Not
# strict: a skip.  Strict: a failure with perf's error (a transient refusal under load
# is a failure to look at, not a green skip).
need_perf_record() {
	perf_can_record "$@" && return 0
	if strict_skips && ! skip_allowed; then
		echo "FAIL: $PERF_PROBE_ERR"
		exit 1
	fi
	skip "$PERF_PROBE_ERR"
}
