#!/usr/bin/env bash
# perf-cxx.sh - the C++ template-heavy DWARF benchmark: tests/workloads/sort_map_pairs.cpp
# (std::sort/std::map/std::set/std::unordered_map over std::pair<std::string, int> in one
# large compile unit, -O2 -g) recorded with `perf record --call-graph dwarf,16384` until
# it holds BENCH_CXX_SAMPLES samples (10000), then wall time, CPU time and peak RSS of
# `perf script`, `tephra script` and `tephra fold`, with ratios, and whether tephra's
# bytes equal perf's.  Most of its frames are inlined libstdc++ templates: it measures
# naming inline chains (docs/perf-dwarf.md, "Inline chains from a per-unit index").
#
# The recording is cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to
# re-record.  Environment: TEPHRA (default build/tephra), BENCH_CXX_SAMPLES (10000),
# BENCH_RUNS (3): best wall and CPU time of that many interleaved runs.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
WANT=${BENCH_CXX_SAMPLES:-10000}
RUNS=${BENCH_RUNS:-3}
data=$DIR/perf-cxx.data
export LC_ALL=C

command -v perf >/dev/null || { echo "perf-cxx: perf is not installed, skipped"; exit 0; }
command -v g++ >/dev/null || { echo "perf-cxx: g++ is not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "perf-cxx: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"

. "$TOP/bench/lib/perf_bench.sh"

if [ ! -s "$data" ] || [ "$(nr_samples "$data")" -lt "$WANT" ]; then
	g++ -O2 -g -o "$DIR/sort_map_pairs" "$TOP/tests/workloads/sort_map_pairs.cpp"
	secs=3
	while :; do
		rm -f "$data.tmp" "$data.tmp.old" # perf record would keep the old file as .old
		echo "perf-cxx: recording ${secs}s of sort_map_pairs (perf record --call-graph dwarf,16384 -F 4000)..." >&2
		perf record -q -N -m 1024 --call-graph dwarf,16384 -F 4000 -e cpu-clock -o "$data.tmp" -- \
			"$DIR/sort_map_pairs" $((secs * 1000)) >/dev/null 2>&1
		got=$(nr_samples "$data.tmp")
		[ "${got:-0}" -ge "$WANT" ] && break
		secs=$((secs * WANT / (${got:-0} + 1) + 1))
	done
	mv "$data.tmp" "$data"
fi
n=$(nr_samples "$data")
echo "perf-cxx: $data: $n samples, $(du -m "$data" | cut -f1) MB"

perf_bench "$data" "$n" cxx ""
