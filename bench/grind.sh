#!/usr/bin/env bash
# grind.sh - tephra grind against callgrind on a ~1e9-instruction workload
# (bench/grind/workload.c): wall time and peak RSS of each, plus Valgrind's bare core
# (--tool=none) as the floor.  Prints the instruction totals both tools report.
#   usage: bench/grind.sh [SCALE]   (SCALE 95 = about 1.0e9 guest instructions)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
SCALE=${1:-95}
command -v valgrind >/dev/null || { echo "grind.sh: valgrind not installed, skipped"; exit 0; }
[ -x /usr/bin/time ] || { echo "grind.sh: /usr/bin/time (package time) not installed, skipped"; exit 0; }
[ -x "$TEPHRA" ] || { echo "grind.sh: build tephra first (make)"; exit 1; }
tmp=$(mktemp -d /tmp/grind-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -g -o "$tmp/workload" "$TOP/bench/grind/workload.c" || exit 1
cd "$tmp"

measure() { # label command... -> prints "label wall_s peak_rss_kb"
	local label=$1; shift
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/$label.err" ||
		{ echo "$label failed:"; tail -5 "$tmp/$label.err"; return 1; }
	read -r wall rss <"$tmp/time"
	printf '%-26s %8.2f s %9d KB\n' "$label" "$wall" "$rss"
	eval "wall_$label=$wall rss_$label=$rss"
}

echo "workload: bench/grind/workload.c, scale $SCALE"
measure native ./workload "$SCALE"
measure nulgrind valgrind --tool=none ./workload "$SCALE"
measure callgrind valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" ./workload "$SCALE"
measure tephra_grind "$TEPHRA" grind --no-svg -o "$tmp/t.folded" ./workload "$SCALE"
measure tephra_grind_svg "$TEPHRA" grind -o "$tmp/t2.folded" --svg "$tmp/t2.svg" ./workload "$SCALE"

ours=$(awk '{ s += $NF } END { print s }' "$tmp/t.folded")
theirs=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
echo "instructions: tephra grind $ours, callgrind $theirs (summary: line)"
awk -v a="$wall_callgrind" -v b="$wall_tephra_grind" -v c="$rss_callgrind" -v d="$rss_tephra_grind" \
	'BEGIN { printf "tephra grind vs callgrind: %.2fx faster, peak RSS %.2fx\n", a / b, d / c }'
