#!/usr/bin/env bash
# bench/render.sh - tephra flamegraph against flamegraph.pl on 1,000,000 unique stacks.
#
# Makes a folded file of 1 M unique stacks (depth 6-17, names shared near the root, unique
# at the leaves, counts 1-100), renders it with both tools at the same --minwidth, and
# prints wall time, peak RSS and SVG size with ratios.  flamegraph.pl comes from
# $FLAMEGRAPH_DIR (a FlameGraph checkout); without it only tephra is measured.
# Usage: bench/render.sh [STACKS] [MINWIDTH]      (defaults 1000000 and 0.1)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000}
minwidth=${2:-0.1}
work=${BENCH_TMP:-/tmp/render-bench}
mkdir -p "$work"
folded=$work/stacks-$n.folded
[ -x "$top/build/tephra" ] || { echo "build tephra first (make)" >&2; exit 1; }
# A private copy: a concurrent `make` relinking build/tephra must not disturb the timing.
tephra=$work/tephra
cp "$top/build/tephra" "$tephra"

if [ ! -s "$folded" ]; then
	python3 - "$n" > "$folded" <<'PY'
import random, sys
n = int(sys.argv[1])
rng = random.Random(42)
mods = ["libc.so.6`", "app`", "libz`", "libssl`", ""]
out = sys.stdout
for i in range(n):
	depth = 6 + i % 12
	frames = ["app-%d" % (i % 4), "main", "run_loop", "dispatch_%d" % (i % 16)]
	for k in range(4, depth - 1):
		frames.append("%sfn_%d_%d" % (mods[(i >> k) % 5], k, (i * 2654435761 >> (k * 3)) % (40 * k)))
	frames.append("leaf_%07d" % i)
	out.write(";".join(frames) + " %d\n" % rng.randint(1, 100))
PY
fi

measure() { # label command... -> "wall_s rss_kb"
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t0 = time.monotonic()
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.monotonic() - t0
if r.returncode:
	sys.exit("%s failed with %d" % (sys.argv[1], r.returncode))
print("%.2f %d" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}

echo "input: $n unique stacks, $(($(stat -c %s "$folded") >> 20)) MiB, --minwidth $minwidth"
read -r t_wall t_rss < <(measure tephra "$tephra" flamegraph --minwidth "$minwidth" "$folded" -o "$work/tephra.svg")
t_size=$(stat -c %s "$work/tephra.svg")
printf '%-14s wall %7.2f s   peak RSS %7d KiB   SVG %9d bytes   frames %d\n' tephra "$t_wall" "$t_rss" \
	"$t_size" "$(grep -c '^<g o=' "$work/tephra.svg")"

fg=${FLAMEGRAPH_DIR:-}
if [ -z "$fg" ] || [ ! -f "$fg/flamegraph.pl" ]; then
	echo "flamegraph.pl: not measured (set FLAMEGRAPH_DIR to a FlameGraph checkout)"
	exit 0
fi
read -r f_wall f_rss < <(measure flamegraph.pl bash -c "perl '$fg/flamegraph.pl' --minwidth '$minwidth' '$folded' > '$work/fg.svg'")
f_size=$(stat -c %s "$work/fg.svg")
printf '%-14s wall %7.2f s   peak RSS %7d KiB   SVG %9d bytes   frames %d\n' flamegraph.pl "$f_wall" "$f_rss" \
	"$f_size" "$(grep -c '^<title>' "$work/fg.svg" || true)"
python3 - "$t_wall" "$f_wall" "$t_rss" "$f_rss" "$t_size" "$f_size" <<'PY'
import sys
tw, fw, tr, fr, ts, fs = map(float, sys.argv[1:])
print("ratios: flamegraph.pl/tephra wall %.1fx, peak RSS %.1fx, SVG size %.2fx" % (fw / tw, fr / tr, fs / ts))
PY
