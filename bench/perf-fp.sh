#!/usr/bin/env bash
# perf-fp.sh - the perf.data benchmark: a frame-pointer profile of >= 1M samples, then
# wall time and peak RSS of `perf script`, `perf script | stackcollapse-perf.pl` (when
# FLAMEGRAPH_DIR holds it), `tephra script` and `tephra fold`, with ratios, and whether
# tephra's bytes equal perf's.
#
# The recording (a few seconds to make: the bundled workloads under `perf record -g -c 10000`)
# is cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to re-record.
# Environment: TEPHRA (default build/tephra), FLAMEGRAPH_DIR, BENCH_RECORD_ONLY (set:
# make or keep the recording, measure nothing), BENCH_MIN_SAMPLES (1000000),
# BENCH_RUNS (3): perf script, tephra script and tephra fold run that many times and the
# best wall and CPU time of each is kept (the machine is shared: the best run is the one
# the neighbours disturbed least); the slow Perl pipeline runs once.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
MIN=${BENCH_MIN_SAMPLES:-1000000}
RUNS=${BENCH_RUNS:-3}
data=$DIR/perf-fp.data
export LC_ALL=C

command -v perf >/dev/null || { echo "perf-fp: perf is not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "perf-fp: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"

. "$TOP/bench/lib/perf_bench.sh"

if [ ! -s "$data" ] || [ "$(nr_samples "$data")" -lt "$MIN" ] 2>/dev/null; then
	"$TOP/tests/workloads/build.sh" "$DIR/workloads"
	# Start short and grow: the workloads run for CPU time, so the sample rate follows
	# the machine (a loaded 2-core machine gave 21.6 M samples, 4.2 GB, for 12 s)
	secs=1
	while :; do
		ms=$((secs * 1000))
		echo "perf-fp: recording ${secs}s of the bundled workloads (perf record -g -c 10000)..." >&2
		perf record -q -N -g -e cpu-clock -c 10000 -o "$data.tmp" -- sh -c \
			"'$DIR/workloads/recurse' $ms & '$DIR/workloads/templates' $ms & '$DIR/workloads/threads' $ms >/dev/null; wait" \
			>/dev/null 2>&1
		n=$(nr_samples "$data.tmp")
		[ "$n" -ge "$MIN" ] && break
		secs=$((secs * MIN / (n + 1) + 2))
	done
	mv "$data.tmp" "$data"
fi
[ -z "${BENCH_RECORD_ONLY:-}" ] || exit 0 # bench/export.sh: the recording only
n=$(nr_samples "$data")
echo "perf-fp: $data: $n samples, $(du -m "$data" | cut -f1) MB"

perf_bench "$data" "$n" fp ""
