#!/usr/bin/env bash
# bench/unwind.sh - how fast DWARF call graphs are unwound.  Records workloads with
# `perf record --call-graph dwarf` and measures the CPU time (perf stat task-clock: the
# machine is shared, wall time is noise) of
#   - perf script -F ip,dso --no-inline   (the peer: it unwinds every sample, prints
#                                           addresses; no symbols, no inline expansion)
#   - unwind-dump --quiet                 (reads the file, keeps the machine model,
#                                           unwinds every sample)
#   - unwind-dump --quiet --fresh         (a new unwinder per sample: modules reported and
#                                           CFI parsed for every sample, as perf's libdw
#                                           path does)
# and prints samples per CPU-second for each and the ratios.
#
#   bench/unwind.sh [SECONDS]        (default 2; workloads: our own, then python3 if present)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-2}
work=$(mktemp -d /tmp/unwind-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
dump=$TOP/build/unwind/unwind-dump
[ -x "$dump" ] || { echo "build first: make" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 1; }

calc() { awk "BEGIN { print $1 }"; }
cpu_seconds() { # command... -> CPU seconds it used (task-clock)
	perf stat -x, -o "$work/stat" -e task-clock -- "$@" >/dev/null 2>&1
	awk -F, '/task-clock/ { print $1 / 1000 }' "$work/stat"
}

bench_one() { # name, command...
	local name=$1; shift
	perf record -q -F 2999 --call-graph dwarf -o "$work/$name.data" "$@" >/dev/null 2>&1 ||
		{ echo "$name: perf record failed" >&2; return; }
	local samples perf_s ours_s fresh_s
	samples=$("$dump" --quiet --stats "$work/$name.data" 2>&1 | awk '/^samples/ { print $2 + 0 }')
	perf_s=$(cpu_seconds perf script -i "$work/$name.data" -F ip,dso --no-inline)
	ours_s=$(cpu_seconds "$dump" --quiet "$work/$name.data")
	fresh_s=$(cpu_seconds "$dump" --quiet --fresh "$work/$name.data")
	printf '%-9s %6d samples | perf script %6.3f s (%6.0f/s) | unwind-dump %6.3f s (%6.0f/s): x%.1f | --fresh %6.3f s (%5.0f/s): reuse gains x%.1f\n' \
		"$name" "$samples" "$perf_s" "$(calc "$samples / $perf_s")" \
		"$ours_s" "$(calc "$samples / $ours_s")" "$(calc "$perf_s / $ours_s")" \
		"$fresh_s" "$(calc "$samples / $fresh_s")" "$(calc "$fresh_s / $ours_s")"
}

gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
bench_one workload "$work/workload" $((secs * 50)) 2
if command -v python3 >/dev/null; then
	python=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
	bench_one python3 "$python" -c "
import json, time
t = time.time()
while time.time() - t < $secs:
    json.loads(json.dumps([{'a': i, 'b': str(i)} for i in range(2000)]))"
fi
