#!/usr/bin/env bash
# perf-fp.sh - the perf.data benchmark: a frame-pointer profile of >= 1M samples, then
# wall time and peak RSS of `perf script`, `perf script | stackcollapse-perf.pl` (when
# FLAMEGRAPH_DIR holds it), `tephra script` and `tephra fold`, with ratios, and whether
# tephra's bytes equal perf's.
#
# The recording (~20 s to make: the bundled workloads under `perf record -g -c 10000`)
# is cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to re-record.
# Environment: TEPHRA (default build/tephra), FLAMEGRAPH_DIR, BENCH_MIN_SAMPLES (1000000),
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

nr_samples() {
	perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

if [ ! -s "$data" ] || [ "$(nr_samples "$data")" -lt "$MIN" ] 2>/dev/null; then
	"$TOP/tests/workloads/build.sh" "$DIR/workloads"
	secs=12
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
n=$(nr_samples "$data")
echo "perf-fp: $data: $n samples, $(du -m "$data" | cut -f1) MB"

# measure NAME OUTFILE COMMAND: prints wall seconds, CPU seconds (user+sys of all its
# processes) and peak RSS (KB; a pipeline counts its largest process) of COMMAND, a shell
# line whose output goes to OUTFILE.  CPU time is reported beside wall time because on a
# shared machine wall time mostly measures the neighbours.
measure() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
name, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.monotonic()
with open(out, 'wb') as f:
    rc = subprocess.call(['bash', '-o', 'pipefail', '-c', cmd], stdout=f)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print('%s %.3f %d %d %.3f' % (name, wall, ru.ru_maxrss, rc, ru.ru_utime + ru.ru_stime))
PY
}

results=$DIR/results.txt
: >"$results"
# Each command is measured RUNS times, the runs of the three interleaved so that a burst
# of the neighbours' load does not hit one command only; awk keeps the best of each.
sc=${FLAMEGRAPH_DIR:-}/stackcollapse-perf.pl
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$sc" ]; then
	measure perf_script_collapse "$DIR/out.pfold" "perf script -i '$data' 2>/dev/null | perl '$sc'" >>"$results"
fi
for _ in $(seq "$RUNS"); do
	measure perf_script "$DIR/out.perf" "perf script -i '$data' 2>/dev/null" >>"$results"
	measure tephra_script "$DIR/out.tephra" "'$TEPHRA' script -i '$data'" >>"$results"
	measure tephra_fold "$DIR/out.tfold" "'$TEPHRA' fold -i '$data'" >>"$results"
done

awk -v n="$n" '
	function keep_min(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
	{
		if (!($1 in seen)) { seen[$1] = 1; name[++nr] = $1 }
		keep_min(wall, $1, $2); keep_min(cpu, $1, $5)
		if ($3 > rss[$1]) rss[$1] = $3
		if ($4 != 0) bad = bad " " $1
	}
	END {
		order[1] = "perf_script"; order[2] = "perf_script_collapse"
		order[3] = "tephra_script"; order[4] = "tephra_fold"
		printf "%-22s %9s %8s %10s %8s %8s %9s\n", "command", "wall (s)", "CPU (s)", "peak RSS",
			"x wall", "x CPU", "RSS ratio"
		for (i = 1; i <= 4; i++) {
			k = order[i]
			if (!(k in seen)) continue
			printf "%-22s %9.3f %8.3f %7.1f MB %7.1fx %7.1fx %8.2fx\n", k, wall[k], cpu[k],
				rss[k] / 1024, wall["perf_script"] / (wall[k] > 0 ? wall[k] : 1e-9),
				cpu["perf_script"] / (cpu[k] > 0 ? cpu[k] : 1e-9), rss[k] / rss["perf_script"]
		}
		print "(best of the runs; x wall, x CPU: how many times faster than perf script; RSS ratio: peak RSS / perf script'"'"'s)"
		printf "samples per CPU second: tephra fold %.0f, tephra script %.0f, perf script %.0f\n",
			n / cpu["tephra_fold"], n / cpu["tephra_script"], n / cpu["perf_script"]
		if (bad != "") printf "FAILED commands:%s\n", bad
	}' "$results"
if cmp -s "$DIR/out.perf" "$DIR/out.tephra"; then
	echo "tephra script output: identical to perf script ($(wc -c <"$DIR/out.perf") bytes)"
else
	echo "tephra script output: DIFFERS from perf script"; diff "$DIR/out.perf" "$DIR/out.tephra" | head -n 5
fi
if [ -s "$DIR/out.pfold" ]; then
	if cmp -s "$DIR/out.pfold" "$DIR/out.tfold"; then
		echo "tephra fold output: identical to perf script | stackcollapse-perf.pl ($(wc -l <"$DIR/out.tfold") stacks)"
	else
		echo "tephra fold output: DIFFERS from stackcollapse-perf.pl"; diff "$DIR/out.pfold" "$DIR/out.tfold" | head -n 5
	fi
fi
rm -f "$DIR"/out.*
