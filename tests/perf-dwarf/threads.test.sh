# threads: a DWARF fold and script run their threads (the reader, the kallsyms thread,
# the object pool's workers; docs/ARCHITECTURE.md).  Under ThreadSanitizer
# (build/tsan/tephra, `make tsan`), on a recording big enough to start every one of them
# and to wrap the reader's window (> 16 MB, kernel frames, libc with its debug file), with
# the default options and with --inline / --srcline (other requests to the workers): no
# data race reported, and the same bytes as the plain build (whose output the other DWARF
# tests hold against perf script): the timing of the threads, very different under TSan,
# must not show.
. "$TOP/tests/perf/lib.sh"
need_perf
TSAN_BIN=$TOP/build/tsan/tephra
[ -x "$TSAN_BIN" ] || { echo "build/tsan/tephra is missing: make tsan (make check builds it)"; exit 1; }
build_workloads
export TSAN_OPTIONS="halt_on_error=0 exitcode=66"

data=$TEST_TMP/both.data
record "$data" --call-graph dwarf -F 4000 -e cpu-clock -- sh -c \
	"'$WL/recurse' 700 & '$WL/templates' 700 >/dev/null; wait"
size=$(stat -c %s "$data")
[ "$size" -gt $((16 << 20)) ] || fail "the recording is only $size bytes: the read window does not wrap"
"$TEPHRA" script -i "$data" 2>/dev/null | grep -q '\[kernel.kallsyms\]' ||
	fail "no kernel frame in the recording: the kallsyms thread is not exercised"
"$TEPHRA" script -i "$data" 2>/dev/null | grep -q ' (inlined)$' ||
	fail "no inlined frame in the recording: the worker's inline facts are not exercised"

# same NAME COMMAND-ARGS...: the plain and the TSan build print the same, TSan is silent
same() {
	local name=$1; shift
	"$TEPHRA" "$@" >"$TEST_TMP/$name.plain" 2>"$TEST_TMP/$name.plain.err" || {
		fail "$name: tephra $* failed: $(head -n 3 "$TEST_TMP/$name.plain.err")"; return; }
	"$TSAN_BIN" "$@" >"$TEST_TMP/$name.tsan" 2>"$TEST_TMP/$name.tsan.err"
	local rc=$?
	if grep -q 'WARNING: ThreadSanitizer' "$TEST_TMP/$name.tsan.err"; then
		fail "$name: ThreadSanitizer reported:"
		grep -m 1 -A 14 'WARNING: ThreadSanitizer' "$TEST_TMP/$name.tsan.err"
	elif [ "$rc" -ne 0 ]; then
		fail "$name: the TSan build failed (exit $rc): $(head -n 3 "$TEST_TMP/$name.tsan.err")"
	fi
	[ -s "$TEST_TMP/$name.plain" ] || fail "$name: no output"
	if cmp -s "$TEST_TMP/$name.plain" "$TEST_TMP/$name.tsan" &&
		cmp -s "$TEST_TMP/$name.plain.err" "$TEST_TMP/$name.tsan.err"; then
		echo "ok: $name: $(wc -l <"$TEST_TMP/$name.plain") lines, the same under TSan"
	else
		fail "$name: the TSan build printed something else:"
		diff "$TEST_TMP/$name.plain" "$TEST_TMP/$name.tsan" | head -n 10
		diff "$TEST_TMP/$name.plain.err" "$TEST_TMP/$name.tsan.err" | head -n 10
	fi
}

same fold fold "$data"
same fold-inline fold --inline "$data"
same fold-srcline fold --srcline "$data"
same script script -i "$data"
finish
