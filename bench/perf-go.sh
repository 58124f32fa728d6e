#!/usr/bin/env bash
# perf-go.sh - the Go DWARF benchmark: tests/workloads/gowork.go (maps, sorting, strconv;
# built by Debian's golang-go) recorded with `perf record --call-graph dwarf -F 4000` until
# it holds BENCH_GO_SAMPLES samples (10000), then wall time, CPU time and peak RSS of
# `perf script`, `tephra script` and `tephra fold`, with ratios, and how tephra's output
# compares with perf's.  Go binaries carry their CFI only in a compressed .debug_frame:
# perf 6.1 here unwinds one user frame, tephra to runtime.goexit (tests/perf-dwarf/go.test.sh),
# so nearly every sample is one where "perf stopped early".
#
# The recording is cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to
# re-record.  Environment: TEPHRA (default build/tephra), BENCH_GO_SAMPLES (10000),
# BENCH_RUNS (3).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
WANT=${BENCH_GO_SAMPLES:-10000}
RUNS=${BENCH_RUNS:-3}
data=$DIR/perf-go.data
export LC_ALL=C

command -v perf >/dev/null || { echo "perf-go: perf is not installed, skipped"; exit 0; }
command -v go >/dev/null || { echo "perf-go: go is not installed (Debian: golang-go), skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "perf-go: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"

. "$TOP/bench/lib/perf_bench.sh"

if [ ! -x "$DIR/gowork" ] || [ "$TOP/tests/workloads/gowork.go" -nt "$DIR/gowork" ]; then
	# no module, no network; the build cache stays in the scratch directory
	GOCACHE=$DIR/gocache GOPATH=$DIR/gopath GO111MODULE=off GOFLAGS= \
		go build -o "$DIR/gowork" "$TOP/tests/workloads/gowork.go"
	rm -f "$data" # it named the old binary
fi
record_samples "$data" "$WANT" perf-go "--call-graph dwarf -F 4000 -e cpu-clock" "'$DIR/gowork' \$MS"
n=$(nr_samples "$data")
echo "perf-go: $data: $n samples, $(du -m "$data" | cut -f1) MB"

BENCH_NOTE="Go: perf 6.1 unwinds 1 user frame, tephra to runtime.goexit" perf_bench "$data" "$n" go ""
