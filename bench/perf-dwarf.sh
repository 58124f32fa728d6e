#!/usr/bin/env bash
# perf-dwarf.sh - the DWARF perf.data benchmark: a `perf record --call-graph dwarf -F 4000`
# profile of >= 300 MB, then wall time, CPU time and peak RSS of `perf script` (alone),
# `perf script | stackcollapse-perf.pl` (when FLAMEGRAPH_DIR holds it), `tephra script`
# and `tephra fold`, with ratios, and whether tephra's bytes equal perf's.
#
# Targets (docs/perf.md, DWARF section): fold >= 10x faster than perf script, script
# >= 3x, peak RSS no higher than perf script's.
#
# The recording (the bundled workloads, recorded until the file holds BENCH_MIN_MB) is
# cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to re-record.
# Environment: TEPHRA (default build/tephra), FLAMEGRAPH_DIR, BENCH_RECORD_ONLY (set:
# make or keep the recording, measure nothing), BENCH_MIN_MB (300),
# BENCH_RUNS (3): best wall and CPU time of that many interleaved runs (bench/lib/perf_bench.sh).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
MIN_MB=${BENCH_MIN_MB:-300}
RUNS=${BENCH_RUNS:-3}
data=$DIR/perf-dwarf.data
export LC_ALL=C

command -v perf >/dev/null || { echo "perf-dwarf: perf is not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "perf-dwarf: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"

. "$TOP/bench/lib/perf_bench.sh"

size_mb() { du -m "$1" 2>/dev/null | cut -f1; }

if [ ! -s "$data" ] || [ "$(size_mb "$data")" -lt "$MIN_MB" ]; then
	# its own copy of the workloads: the recording names these binaries, and another
	# benchmark rebuilding a shared copy would leave it naming other bytes
	"$TOP/tests/workloads/build.sh" "$DIR/perf-dwarf-workloads"
	secs=8
	while :; do
		ms=$((secs * 1000))
		echo "perf-dwarf: recording ${secs}s of the bundled workloads (perf record --call-graph dwarf -F 4000)..." >&2
		perf record -q -N --call-graph dwarf -F 4000 -e cpu-clock -o "$data.tmp" -- sh -c \
			"'$DIR/perf-dwarf-workloads/recurse' $ms & '$DIR/perf-dwarf-workloads/templates' $ms >/dev/null; wait" \
			>/dev/null 2>&1
		mb=$(size_mb "$data.tmp")
		[ "$mb" -ge "$MIN_MB" ] && break
		secs=$((secs * MIN_MB / (mb + 1) + 2))
	done
	mv "$data.tmp" "$data"
fi
[ -z "${BENCH_RECORD_ONLY:-}" ] || exit 0 # bench/export.sh: the recording only
n=$(nr_samples "$data")
echo "perf-dwarf: $data: $n samples, $(size_mb "$data") MB"

perf_bench "$data" "$n" dwarf ""
