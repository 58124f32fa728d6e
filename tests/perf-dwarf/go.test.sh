# go: a Go program (tests/workloads/gowork.go, built with Debian's golang-go) recorded with
# `perf record --call-graph dwarf`.  Go binaries carry their CFI only in a compressed
# .debug_frame (no .eh_frame).  tephra's stacks of the samples in the program's own code
# must go through main.work and main.main to runtime.main and runtime.goexit (the
# goroutine's start); perf script's for the same samples must be a first part of them:
# perf 6.1 here stops after the first frame (go_stacks.py says how deep it went; were it
# to reach runtime.goexit, its stacks must equal ours).  Compared with --no-inline: the
# unwinding is what is tested here, not the naming of inlined frames.  And tephra fold's
# lines of those samples start at runtime.goexit.  The ASan build, when built, must print
# the same text.
. "$TOP/tests/perf/lib.sh"
need_perf
command -v go >/dev/null 2>&1 || skip "go is not installed (Debian: golang-go)"
failures=0

# no module, no network; the build cache is the test's own
GOCACHE=$TEST_TMP/gocache GOPATH=$TEST_TMP/gopath GO111MODULE=off GOFLAGS= \
	go build -o "$TEST_TMP/gowork" "$TOP/tests/workloads/gowork.go" >"$TEST_TMP/build.log" 2>&1 || {
	echo "go build failed:"; cat "$TEST_TMP/build.log"; exit 1; }
# a sample every 250 us of CPU time; the workload runs for 300 ms of CPU time: ~1200 samples
# whatever the machine's load
record "$TEST_TMP/go.data" --call-graph dwarf -e cpu-clock -c 250000 -- "$TEST_TMP/gowork" 300

perf script --no-inline -i "$TEST_TMP/go.data" >"$TEST_TMP/perf.txt" 2>/dev/null ||
	fail "perf script failed"
"$TEPHRA" script --no-inline -i "$TEST_TMP/go.data" >"$TEST_TMP/tephra.txt" 2>"$TEST_TMP/tephra.err" ||
	fail "tephra script failed: $(head -n 3 "$TEST_TMP/tephra.err")"
python3 "$TOP/tests/perf-dwarf/go_stacks.py" "$TEST_TMP/perf.txt" "$TEST_TMP/tephra.txt" ||
	fail "the Go stacks (above)"

# the ASan+UBSan build (when built) on the same recording: Go's compressed .debug_frame
# and its DWARF are read by the same code, so the same bytes
if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" script --no-inline -i "$TEST_TMP/go.data" >"$TEST_TMP/asan.txt" 2>"$TEST_TMP/asan.err" ||
		fail "the ASan build's tephra script failed: $(head -n 5 "$TEST_TMP/asan.err")"
	cmp -s "$TEST_TMP/tephra.txt" "$TEST_TMP/asan.txt" || fail "the ASan build printed other stacks"
fi

"$TEPHRA" fold -i "$TEST_TMP/go.data" >"$TEST_TMP/fold.txt" 2>"$TEST_TMP/fold.err" ||
	fail "tephra fold failed: $(head -n 3 "$TEST_TMP/fold.err")"
# every folded stack through main.work starts at the goroutine's start
awk '/;main\.work(;| )/ { n++; if ($0 !~ /^gowork;runtime\.goexit\.abi0;runtime\.main;main\.main;main\.work(;| )/) bad++ }
	END { printf "fold: %d stacks through main.work, %d not from runtime.goexit\n", n, bad; exit !(n > 0 && bad == 0) }' \
	"$TEST_TMP/fold.txt" || fail "tephra fold's Go stacks"
finish
