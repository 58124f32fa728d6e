#!/usr/bin/env bash
# `tephra stat` against perf's own view of the same recordings:
#  - header facts (hostname, os release, perf version, arch, nrcpus, cpudesc, cpuid,
#    total memory, cmdline) equal `perf report --header-only`;
#  - each event's name, ids and sample_type equal perf's "# event :" lines;
#  - record counts by type and samples per event equal the "Aggregated stats" of
#    `perf report -D`; lost events / samples equal the sums over the LOST records it dumps;
#  - the BUILD_ID feature equals `perf buildid-list`.
# Recordings: frame pointers, two events, compressed (-z), pipe mode, lossy (perf stopped while its workload runs: lib.sh record_lossy),
# a perf.data directory (--threads).
set -u
. "$(dirname "$0")/lib.sh"
require_perf
cd "$TEST_TMP" || exit 1
export -f burn

perf record -q -g -o g.data -- bash -c burn >/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
perf record -q -e cpu-clock -e task-clock -o two.data -- bash -c burn >/dev/null 2>&1 || exit 1
perf record -q -z -o z.data -- bash -c burn >/dev/null 2>&1 || exit 1
perf record -q -o - -- bash -c burn > p.data 2>/dev/null || exit 1
record_lossy l.data
perf record -q --threads -a -g -o t.data -- sleep 0.2 >/dev/null 2>&1 || exit 1

fail=0
check() { # what, expected-file, actual-file
	if ! cmp -s "$2" "$3"; then
		echo "$1 differs (- perf, + tephra):"; diff "$2" "$3" | head -20; fail=1
	else
		echo "$1: $(wc -l < "$2") lines match"
	fi
}
for f in g two z p l t; do
	if [ "$f" = p ]; then "$TEPHRA" stat - < p.data; else "$TEPHRA" stat "$f.data"; fi > "$f.stat" ||
		{ echo "tephra stat failed on $f"; fail=1; continue; }
	if [ "$f" = p ]; then
		perf report --header-only -i - < p.data > "$f.hdr" 2>/dev/null
		perf report -D -i - < p.data > "$f.dump" 2>/dev/null
	else
		perf report --header-only -i "$f.data" > "$f.hdr" 2>/dev/null
		perf report -D -i "$f.data" > "$f.dump" 2>/dev/null
	fi
	keys='^# (hostname|os release|perf version|arch|nrcpus online|nrcpus avail|cpudesc|cpuid|total memory|cmdline) :'
	grep -E "$keys" "$f.hdr" | sed 's/ *$//' > "$f.hdr.perf"
	grep -E "$keys" "$f.stat" > "$f.hdr.tephra"
	[ -s "$f.hdr.perf" ] || { echo "$f: perf shows no header facts"; fail=1; }
	check "$f header" "$f.hdr.perf" "$f.hdr.tephra"

	sed -n 's/^# event : name = \([^,]*\), .*id = { \([0-9, ]*\) }.* sample_type = \([A-Z_|]*\).*/\1 {\2} \3/p' "$f.hdr" > "$f.ev.perf"
	sed -n 's/^# event : name = \([^,]*\), id = { \([0-9, ]*\) }.* sample_type = \([A-Z_|]*\).*/\1 {\2} \3/p' "$f.stat" > "$f.ev.tephra"
	[ -s "$f.ev.perf" ] || { echo "$f: perf shows no events"; fail=1; }
	check "$f events" "$f.ev.perf" "$f.ev.tephra"

	awk '/^Aggregated stats:/ { on = 1; next }
	     on && / stats:$/ { on = 0 }
	     on && $2 == "events:" && $1 != "TOTAL" { print $1, $3 }' "$f.dump" | sort > "$f.cnt.perf"
	awk '/^records:/ { on = 1; next } /^samples per event:/ { on = 0 }
	     on && $1 != "total" { t = $1; sub(/^PERF_RECORD_/, "", t); print t, $2 }' "$f.stat" | sort > "$f.cnt.tephra"
	[ -s "$f.cnt.perf" ] || { echo "$f: perf shows no record counts"; fail=1; }
	check "$f record counts" "$f.cnt.perf" "$f.cnt.tephra"

	awk '/ stats:$/ && !/^Aggregated/ { ev = $1; next } ev != "" && $1 == "SAMPLE" { print ev, $3; ev = "" }' "$f.dump" |
		sort > "$f.spe.perf"
	awk '/^samples per event:/ { on = 1; next } /^lost/ { on = 0 } on && $2 > 0 { print $1, $2 }' "$f.stat" |
		sort > "$f.spe.tephra"
	check "$f samples per event" "$f.spe.perf" "$f.spe.tephra"

	# lost events and lost samples, summed over the LOST / LOST_SAMPLES records perf dumps
	{ sed -n 's/.*PERF_RECORD_LOST: id:[0-9]*: lost:\([0-9]*\).*/\1/p' "$f.dump" |
		awk '{ s += $1 } END { print "lost events:", s + 0 }'
	  sed -n 's/.*PERF_RECORD_LOST_SAMPLES: .*lost samples :\([0-9]*\).*/\1/p' "$f.dump" |
		awk '{ s += $1 } END { print "lost samples:", s + 0 }'
	} > "$f.lost.perf"
	sed -n 's/^\(lost [a-z]*: [0-9]*\) .*/\1/p' "$f.stat" > "$f.lost.tephra"
	check "$f lost" "$f.lost.perf" "$f.lost.tephra"

	# the BUILD_ID feature, as `perf buildid-list` reads it (file mode)
	if [ "$f" != p ]; then
		# (a file without the feature gets the objects hit by samples, with blank ids)
		perf buildid-list -i "$f.data" 2>/dev/null | grep -E '^[0-9a-f]+ ' | sort > "$f.bid.perf"
		"$TEPHRA" stat --build-ids "$f.data" | sort > "$f.bid.tephra"
		[ -s "$f.bid.perf" ] || [ "$f" = z ] || { echo "$f: perf lists no build-ids"; fail=1; }
		check "$f build-ids" "$f.bid.perf" "$f.bid.tephra"
	fi
done
# a file-mode perf.data on a pipe is read whole first: same report as from the file
cat g.data | "$TEPHRA" stat - > g.pipe.stat || { echo "tephra stat - failed on a piped file"; fail=1; }
check "g through a pipe" g.stat g.pipe.stat
grep -q '^lost samples: [1-9]' l.lost.perf || { echo "the lossy recording lost nothing (perf: $(tr '\n' ' ' <l.lost.perf))"; fail=1; }
exit $fail
