#!/usr/bin/env bash
# Every record, in delivery order, with offset, size, type, time and (for samples)
# pid/tid, ip, period, callchain, user registers and user stack), must equal what
# `perf script -D` dumps for the same file, and the samples must come in the order plain
# `perf script` prints them: frame-pointer, compressed (-z), pipe-mode (plain and -z),
# two-event, system-wide (-a), DWARF, lossy (lib.sh record_lossy) and directory (--threads)
# recordings made here with the machine's perf.
set -u
. "$(dirname "$0")/lib.sh"
require_perf
cd "$TEST_TMP" || exit 1
export -f burn

record() { # name, perf record args...
	local name=$1; shift
	perf record -q "$@" >/dev/null 2>"$name.err" || { cat "$name.err"; echo "perf record $* failed"; exit 1; }
}
record g -g -o g.data -- bash -c burn
record z -z -g -o z.data -- bash -c burn
perf record -q -g -o - -- bash -c burn > p.data 2>/dev/null || { echo "pipe record failed"; exit 1; }
record two -e cpu-clock -e task-clock -o two.data -- bash -c burn
record a -a -g -o a.data -- sleep 0.2
record d --call-graph dwarf,4096 -o d.data -- bash -c burn
# a one-page buffer read late: many rounds, lost samples (by construction: lib.sh)
record_lossy l.data
perf record -q -z -g -o - -- bash -c burn > zp.data 2>/dev/null || { echo "pipe -z record failed"; exit 1; }
# a perf.data directory: one data.N file per recording thread
record t --threads -a -g -o t.data -- sleep 0.3
record tz -z --threads -a -g -o tz.data -- sleep 0.3

fail=0
for f in g z p zp two a d l t tz; do
	add=0
	case $f in p|zp) add=16;; esac
	if [ "$add" = 16 ]; then perf script -D -i - < "$f.data"; else perf script -D -i "$f.data"; fi 2>/dev/null | canon_perf $add > "$f.perf"
	if [ "$add" = 16 ]; then
		"$TEPHRA" stat --records - < "$f.data" > "$f.raw" || { echo "tephra failed on $f"; fail=1; continue; }
	else
		"$TEPHRA" stat --records "$f.data" > "$f.raw" || { echo "tephra failed on $f"; fail=1; continue; }
	fi
	canon_tephra < "$f.raw" > "$f.tephra"
	n=$(grep -c SAMPLE "$f.perf")
	if [ "$n" -lt 1 ]; then echo "$f: perf shows no samples"; fail=1; continue; fi
	if ! cmp -s "$f.perf" "$f.tephra"; then
		echo "$f: record sequence differs from perf script -D ($n samples):"
		diff "$f.perf" "$f.tephra" | head -20
		fail=1
	else
		echo "$f: $(wc -l < "$f.perf") records ($n samples) match"
	fi
	# and the samples as plain `perf script` prints them (tid, time, period), in order
	if [ "$add" = 16 ]; then perf script -G -F tid,time,period --ns -i - < "$f.data"; else
		perf script -G -F tid,time,period --ns -i "$f.data"; fi 2>/dev/null |
		awk '{ t = $2; sub(/:$/, "", t); print $1, t, $3 }' > "$f.script"
	awk '$4 == "PERF_RECORD_SAMPLE" { split($5, pt, "/"); sub(/:$/, "", pt[2]);
		printf "%s %d.%09d %s\n", pt[2], $1 / 1000000000, $1 % 1000000000, $8 }' "$f.raw" > "$f.tscript"
	if ! cmp -s "$f.script" "$f.tscript"; then
		echo "$f: samples differ from perf script:"; diff "$f.script" "$f.tscript" | head -10; fail=1
	fi
done
exit $fail
