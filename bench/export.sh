#!/usr/bin/env bash
# export.sh - `tephra export` against `tephra fold` on the bench recordings (issue 14's
# goals: every format within 1.5x of fold's time and peak RSS; the pprof file no larger
# than gzip -6 of fold's output plus its mapping/location/function/string tables; also
# measured for --granularity=functions).
#
# The recordings are bench/perf-fp.sh's and bench/perf-dwarf.sh's (made by them, with
# BENCH_RECORD_ONLY, when missing; cached in $TEPHRA_BENCH_DIR, default /tmp/tephra-bench);
# EXPORT_BENCH_FILES (space-separated perf.data paths) measures other files instead.
# Each command runs BENCH_RUNS times (default 5), interleaved; the table shows the best
# wall and CPU (user + sys) time and the lowest peak RSS of the runs (the machine is
# shared: the best run is the one the neighbours disturbed least), and the ratios to fold.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
RUNS=${BENCH_RUNS:-5}
export LC_ALL=C

command -v perf >/dev/null || { echo "export: perf is not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "export: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR"
. "$TOP/bench/lib/perf_bench.sh"

files=${EXPORT_BENCH_FILES:-}
if [ -z "$files" ]; then
	for b in perf-fp perf-dwarf; do
		[ -s "$DIR/$b.data" ] || BENCH_RECORD_ONLY=1 TEPHRA_BENCH_DIR=$DIR bash "$TOP/bench/$b.sh"
		files="$files $DIR/$b.data"
	done
fi

for data in $files; do
	out=$DIR/export-out results=$DIR/export-results.txt
	: >"$results"
	echo "export: $data: $(du -m "$data" | cut -f1) MB"
	for _ in $(seq "$RUNS"); do
		measure fold "$out.folded" "'$TEPHRA' fold -q '$data' 2>/dev/null" >>"$results"
		for f in pprof callgrind speedscope; do
			measure "$f" /dev/null "'$TEPHRA' export -f $f -o '$out.$f' '$data' 2>/dev/null" >>"$results"
		done
		measure report "$out.report" "'$TEPHRA' report '$data' 2>/dev/null" >>"$results"
	done
	awk '
		{
			if (!($1 in wall) || $2 < wall[$1]) wall[$1] = $2
			if (!($1 in cpu) || $5 < cpu[$1]) cpu[$1] = $5
			if (!($1 in rss) || $3 < rss[$1]) rss[$1] = $3
			if ($4 != 0) bad = bad " " $1
		}
		END {
			printf "%-12s %9s %8s %10s %8s %8s %8s\n", "command", "wall (s)", "CPU (s)", "peak RSS",
				"x wall", "x CPU", "x RSS"
			n = split("fold pprof callgrind speedscope report", order, " ")
			for (i = 1; i <= n; i++) {
				k = order[i]
				printf "%-12s %9.3f %8.3f %7.1f MB %7.2fx %7.2fx %7.2fx\n", k, wall[k], cpu[k],
					rss[k] / 1024, wall[k] / wall["fold"], cpu[k] / cpu["fold"], rss[k] / rss["fold"]
			}
			if (bad != "") printf "FAILED commands:%s\n", bad
		}' "$results"
	folded_gz=$(gzip -6 -c "$out.folded" | wc -c)
	tables_gz=$(python3 "$TOP/bench/lib/pprof_tables.py" "$out.pprof")
	pprof=$(wc -c <"$out.pprof")
	echo "pprof: $pprof bytes; gzip -6 of the folded text $folded_gz + tables (gzip -6) $tables_gz = $((folded_gz + tables_gz)) ($(awk -v a="$pprof" -v b="$((folded_gz + tables_gz))" 'BEGIN { printf "%.2f", a / b }')x)"
	# --granularity=functions: a Location per inline chain of functions, a Sample per
	# folded line of a thread (its own, smaller tables)
	"$TEPHRA" export -f pprof --granularity=functions -o "$out.pprof-fn" "$data" 2>/dev/null
	tables_gz=$(python3 "$TOP/bench/lib/pprof_tables.py" "$out.pprof-fn")
	pprof=$(wc -c <"$out.pprof-fn")
	echo "pprof --granularity=functions: $pprof bytes; gzip -6 of the folded text $folded_gz + tables (gzip -6) $tables_gz = $((folded_gz + tables_gz)) ($(awk -v a="$pprof" -v b="$((folded_gz + tables_gz))" 'BEGIN { printf "%.2f", a / b }')x)"
	rm -f "$out".*
done
