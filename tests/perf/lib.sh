# lib.sh - shared by the tests/perf/*.test.sh oracle tests (sourced, not run).
# They record the bundled workloads with the machine's perf during the test, then require
# `tephra script` to print exactly what `perf script` prints, and `tephra fold` to print
# what tests/perf/collapse.py (our own reading of stackcollapse-perf.pl's rules) makes of
# that perf script text.
set -u
: "${TEPHRA:?}" "${TOP:?}" "${TEST_TMP:?}"
HERE=$TOP/tests/perf
WL=$TEST_TMP/workloads
export LC_ALL=C

. "$TOP/tests/skips.sh"

# Skips the test unless perf can record here (installed, permitted; tests/skips.sh).
need_perf() {
	need_tool python3
	need_perf_record
}

build_workloads() {
	"$TOP/tests/workloads/build.sh" "$WL" || { echo "building the workloads failed"; exit 1; }
}

# record OUT PERF-RECORD-ARGS... -- COMMAND...: quiet, no build-id cache side effects.
record() {
	local out=$1; shift
	perf record -q -N -o "$out" "$@" >"$TEST_TMP/record.log" 2>&1 || {
		echo "perf record $* failed:"; cat "$TEST_TMP/record.log"; exit 1; }
}

# record_from_main OUT PERF-RECORD-ARGS... -- COMMAND...: as record, with the events
# off until the workload's main() switches them on (tests/workloads/perf_ctl.h; the
# COMMAND must call perf_ctl_enable): no sample of the dynamic loader, by construction.
record_from_main() {
	local out=$1 ctl=$TEST_TMP/perf-ctl.$$; shift
	rm -f "$ctl"; mkfifo "$ctl" || { echo "mkfifo $ctl failed"; exit 1; }
	TEPHRA_PERF_CTL=$ctl record "$out" -D -1 --control "fifo:$ctl" "$@"
	rm -f "$ctl"
}

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# same_bytes NAME EXPECTED GOT: compare, show the first differing lines.
same_bytes() {
	if cmp -s "$2" "$3"; then
		echo "ok: $1 ($(wc -l <"$2") lines)"
	else
		fail "$1 differs from the oracle (< expected, > tephra):"
		diff "$2" "$3" | head -n 20
	fi
}

# check_script NAME DATA [OPTIONS...]: tephra script == perf script (same options).
check_script() {
	local name=$1 data=$2; shift 2
	perf script -i "$data" "$@" >"$TEST_TMP/$name.perf" 2>"$TEST_TMP/$name.perf.err" || {
		fail "$name: perf script failed: $(head -n 3 "$TEST_TMP/$name.perf.err")"; return; }
	"${TEPHRA_BIN:-$TEPHRA}" script -i "$data" "$@" >"$TEST_TMP/$name.tephra" 2>"$TEST_TMP/$name.tephra.err" || {
		fail "$name: tephra script failed: $(head -n 3 "$TEST_TMP/$name.tephra.err")"; return; }
	[ -s "$TEST_TMP/$name.perf" ] || fail "$name: perf script printed nothing (empty recording?)"
	same_bytes "$name: script" "$TEST_TMP/$name.perf" "$TEST_TMP/$name.tephra"
}

# check_fold NAME DATA "PERF-SCRIPT-OPTIONS" "COLLAPSE-OPTIONS" [TEPHRA-FOLD-OPTIONS...]:
# tephra fold --compat == the collapse of perf script's text
# (PERF-SCRIPT-OPTIONS is shell text: quote or escape blanks inside one option)
check_fold() {
	local name=$1 data=$2 popts=$3 copts=$4; shift 4
	# shellcheck disable=SC2086
	eval "perf script -i \"\$data\" $popts" 2>/dev/null | python3 "$HERE/collapse.py" $copts >"$TEST_TMP/$name.expected"
	"${TEPHRA_BIN:-$TEPHRA}" fold --compat "$@" "$data" >"$TEST_TMP/$name.fold" 2>"$TEST_TMP/$name.fold.err" || {
		fail "$name: tephra fold failed: $(head -n 3 "$TEST_TMP/$name.fold.err")"; return; }
	[ -s "$TEST_TMP/$name.expected" ] || fail "$name: no stacks expected (empty recording?)"
	same_bytes "$name: fold" "$TEST_TMP/$name.expected" "$TEST_TMP/$name.fold"
	fold_invariants "$name" "$data" "$popts" "$copts" "$@"
}

# fold_invariants NAME DATA SCRIPT-OPTIONS FROM-TEXT-OPTIONS [TEPHRA-FOLD-OPTIONS...]:
# what tephra fold prints depends on the recording and the options, nothing else:
#  (a) the same stacks with -q: the stack-quality block (stderr) must not change them
#      (addr2line's answers, which tephra emulates, depend on the questions asked before);
#  (b) with --compat, the same stacks as stackcollapse-perf.pl's rules (tephra fold
#      --from-text, FROM-TEXT-OPTIONS) make of tephra script's own text (SCRIPT-OPTIONS, shell text as
#      for check_fold; "-": no such text for these options, e.g. --inline);
#  (c) the same bytes with its threads on one CPU (taskset -c 0) as on all of them.
fold_invariants() {
	local name=$1 data=$2 sopts=$3 topts=$4; shift 4
	local bin=${TEPHRA_BIN:-$TEPHRA} out=$TEST_TMP/$name.inv
	"$bin" fold "$@" "$data" >"$out.fold" 2>"$out.err" || {
		fail "$name: tephra fold failed: $(head -n 3 "$out.err")"; return; }
	[ -s "$out.fold" ] || { fail "$name: tephra fold printed nothing"; return; }
	"$bin" fold -q "$@" "$data" >"$out.q" 2>"$out.q.err" || {
		fail "$name: tephra fold -q failed: $(head -n 3 "$out.q.err")"; return; }
	same_bytes "$name: fold -q == fold" "$out.fold" "$out.q"
	if [ "$sopts" != - ]; then
		# shellcheck disable=SC2086
		if eval "\"\$bin\" script $sopts \"\$data\"" >"$out.script" 2>"$out.script.err"; then
			# shellcheck disable=SC2086
			"$bin" fold --from-text $topts - <"$out.script" >"$out.text" 2>"$out.text.err" ||
				fail "$name: tephra fold --from-text failed: $(head -n 3 "$out.text.err")"
			"$bin" fold -q --compat "$@" "$data" >"$out.compat" 2>/dev/null ||
				fail "$name: tephra fold --compat failed"
			same_bytes "$name: fold -q --compat == script | fold --from-text" "$out.text" "$out.compat"
		elif grep -q 'is a tracepoint' "$out.script.err"; then
			echo "note: $name: tephra script does not print tracepoints, no script text to fold"
		else
			fail "$name: tephra script failed: $(head -n 3 "$out.script.err")"
		fi
	fi
	if want_tool taskset "$name: one-CPU fold" util-linux; then
		taskset -c 0 "$bin" fold "$@" "$data" >"$out.cpu0" 2>/dev/null ||
			fail "$name: taskset -c 0 tephra fold failed"
		same_bytes "$name: fold on CPU 0 == fold" "$out.fold" "$out.cpu0"
	fi
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
