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
# Environment: TEPHRA (default build/tephra), FLAMEGRAPH_DIR, BENCH_MIN_MB (300).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
MIN_MB=${BENCH_MIN_MB:-300}
data=$DIR/perf-dwarf.data
export LC_ALL=C

command -v perf >/dev/null || { echo "perf-dwarf: perf is not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "perf-dwarf: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"

nr_samples() {
	perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

size_mb() { du -m "$1" 2>/dev/null | cut -f1; }

if [ ! -s "$data" ] || [ "$(size_mb "$data")" -lt "$MIN_MB" ]; then
	"$TOP/tests/workloads/build.sh" "$DIR/workloads"
	secs=8
	while :; do
		ms=$((secs * 1000))
		echo "perf-dwarf: recording ${secs}s of the bundled workloads (perf record --call-graph dwarf -F 4000)..." >&2
		perf record -q -N --call-graph dwarf -F 4000 -e cpu-clock -o "$data.tmp" -- sh -c \
			"'$DIR/workloads/recurse' $ms & '$DIR/workloads/templates' $ms >/dev/null; wait" \
			>/dev/null 2>&1
		mb=$(size_mb "$data.tmp")
		[ "$mb" -ge "$MIN_MB" ] && break
		secs=$((secs * MIN_MB / (mb + 1) + 2))
	done
	mv "$data.tmp" "$data"
fi
n=$(nr_samples "$data")
echo "perf-dwarf: $data: $n samples, $(size_mb "$data") MB"

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

results=$DIR/results-dwarf.txt
: >"$results"
measure perf_script "$DIR/dwarf-out.perf" "perf script -i '$data' 2>/dev/null" >>"$results"
sc=${FLAMEGRAPH_DIR:-}/stackcollapse-perf.pl
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$sc" ]; then
	measure perf_script_collapse "$DIR/dwarf-out.pfold" "perf script -i '$data' 2>/dev/null | perl '$sc'" >>"$results"
fi
measure tephra_script "$DIR/dwarf-out.tephra" "'$TEPHRA' script -i '$data'" >>"$results"
measure tephra_fold "$DIR/dwarf-out.tfold" "'$TEPHRA' fold -q -i '$data'" >>"$results"

awk -v n="$n" '
	{ name[NR] = $1; wall[$1] = $2; rss[$1] = $3; cpu[$1] = $5; if ($4 != 0) bad = bad " " $1 }
	END {
		printf "%-22s %9s %8s %10s %8s %8s %9s\n", "command", "wall (s)", "CPU (s)", "peak RSS",
			"x wall", "x CPU", "RSS ratio"
		for (i = 1; i <= NR; i++) {
			k = name[i]
			printf "%-22s %9.3f %8.3f %7.1f MB %7.1fx %7.1fx %8.2fx\n", k, wall[k], cpu[k],
				rss[k] / 1024, wall["perf_script"] / (wall[k] > 0 ? wall[k] : 1e-9),
				cpu["perf_script"] / (cpu[k] > 0 ? cpu[k] : 1e-9), rss[k] / rss["perf_script"]
		}
		print "(x wall, x CPU: how many times faster than perf script; RSS ratio: peak RSS / perf script'"'"'s)"
		printf "samples per CPU second: tephra fold %.0f, tephra script %.0f, perf script %.0f\n",
			n / cpu["tephra_fold"], n / cpu["tephra_script"], n / cpu["perf_script"]
		if (bad != "") printf "FAILED commands:%s\n", bad
	}' "$results"
if cmp -s "$DIR/dwarf-out.perf" "$DIR/dwarf-out.tephra"; then
	echo "tephra script output: identical to perf script ($(wc -c <"$DIR/dwarf-out.perf") bytes)"
else
	echo "tephra script output: DIFFERS from perf script"; diff "$DIR/dwarf-out.perf" "$DIR/dwarf-out.tephra" | head -n 5
fi
if [ -s "$DIR/dwarf-out.pfold" ]; then
	if cmp -s "$DIR/dwarf-out.pfold" "$DIR/dwarf-out.tfold"; then
		echo "tephra fold output: identical to perf script | stackcollapse-perf.pl ($(wc -l <"$DIR/dwarf-out.tfold") stacks)"
	else
		echo "tephra fold output: DIFFERS from stackcollapse-perf.pl"; diff "$DIR/dwarf-out.pfold" "$DIR/dwarf-out.tfold" | head -n 5
	fi
fi
rm -f "$DIR"/dwarf-out.*
