#!/usr/bin/env bash
# bench/unwind.sh - how fast DWARF call graphs are unwound: records a workload with
# `perf record --call-graph dwarf` and times
#   - perf script (the peer: it unwinds every sample, printing addresses only),
#   - build/unwind/unwind-dump --quiet (reads the file, keeps the machine model, unwinds),
#   - build/unwind/unwind-dump --quiet --fresh (a new unwinder for every sample: modules
#     reported and CFI parsed per sample, as perf's libdw unwinding path does),
# and prints samples/second for each, the ratios, and the unwinder's own rate (time spent
# inside dwarf_unwind_sample only).
#
#   bench/unwind.sh [SECONDS]        (default 2; workloads: our own, then python3 if present)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-2}
work=$(mktemp -d /tmp/unwind-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
dump=$TOP/build/unwind/unwind-dump
[ -x "$dump" ] || { echo "build first: make" >&2; exit 1; }

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }

bench_one() { # name, command...
	local name=$1; shift
	perf record -q -F 2999 --call-graph dwarf -o "$work/$name.data" "$@" >/dev/null 2>&1 ||
		{ echo "$name: perf record failed" >&2; return; }
	local t0 t1 t2 t3 samples perf_s ours_s fresh_s rate
	t0=$(now)
	perf script -i "$work/$name.data" -F ip,dso --no-inline >/dev/null 2>&1
	t1=$(now)
	"$dump" --quiet --stats "$work/$name.data" 2>"$work/$name.stats"
	t2=$(now)
	"$dump" --quiet --fresh "$work/$name.data" 2>/dev/null
	t3=$(now)
	samples=$(awk '/^samples/ { print $2 + 0 }' "$work/$name.stats")
	rate=$(awk '/samples\/s/ { print $(NF - 1) }' "$work/$name.stats")
	perf_s=$(calc "$t1 - $t0")
	ours_s=$(calc "$t2 - $t1")
	fresh_s=$(calc "$t3 - $t2")
	printf '%-9s %6d samples: perf script %6.3f s (%6.0f/s) | unwind-dump %6.3f s (%6.0f/s, x%.1f vs perf) | --fresh %6.3f s (%5.0f/s; reuse is x%.1f) | unwinding alone %s/s\n' \
		"$name" "$samples" "$perf_s" "$(calc "$samples / $perf_s")" "$ours_s" \
		"$(calc "$samples / $ours_s")" "$(calc "$perf_s / $ours_s")" \
		"$fresh_s" "$(calc "$samples / $fresh_s")" "$(calc "$fresh_s / $ours_s")" "$rate"
}

gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
bench_one workload "$work/workload" $((secs * 130))
if command -v python3 >/dev/null; then
	bench_one python3 python3 -c "
import json, time
t = time.time()
while time.time() - t < $secs:
    json.loads(json.dumps([{'a': i, 'b': str(i)} for i in range(2000)]))"
fi
