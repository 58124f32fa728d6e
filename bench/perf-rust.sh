#!/usr/bin/env bash
# perf-rust.sh - the Rust DWARF benchmark: tests/workloads/maps.rs (HashMap and BTreeMap
# through iterators and generics; rustc -C opt-level=2 -g, no frame pointers) recorded with
# `perf record --call-graph dwarf -F 4000` until it holds BENCH_RUST_SAMPLES samples
# (10000), then wall time, CPU time and peak RSS of `perf script`, `tephra script` and
# `tephra fold`, with ratios, and whether tephra's bytes equal perf's.
#
# The recording is cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to
# re-record.  Environment: TEPHRA (default build/tephra), RUSTC (default rustc, else
# /root/.cargo/bin/rustc), BENCH_RUST_SAMPLES (10000), BENCH_RUNS (3).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
WANT=${BENCH_RUST_SAMPLES:-10000}
RUNS=${BENCH_RUNS:-3}
data=$DIR/perf-rust.data
export LC_ALL=C
RUSTC=${RUSTC:-$(command -v rustc || echo /root/.cargo/bin/rustc)}

command -v perf >/dev/null || { echo "perf-rust: perf is not installed, skipped"; exit 0; }
[ -x "$RUSTC" ] || { echo "perf-rust: rustc is not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "perf-rust: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"

. "$TOP/bench/lib/perf_bench.sh"

if [ ! -x "$DIR/maps" ] || [ "$TOP/tests/workloads/maps.rs" -nt "$DIR/maps" ]; then
	"$RUSTC" -C opt-level=2 -g -o "$DIR/maps" "$TOP/tests/workloads/maps.rs"
	rm -f "$data" # it named the old binary
fi
record_samples "$data" "$WANT" perf-rust "--call-graph dwarf -F 4000 -e cpu-clock" "'$DIR/maps' \$MS"
n=$(nr_samples "$data")
echo "perf-rust: $data: $n samples, $(du -m "$data" | cut -f1) MB"

perf_bench "$data" "$n" rust ""
