#!/usr/bin/env bash
# Oracle: records tests/unwind/progs/unwind_workload.c (no frame pointers) with
# `perf record --call-graph dwarf`, then compares, sample by sample, the user frames
# `perf script` prints with the ones our unwinder finds (build/unwind/unwind-dump, plain
# and ASan builds).  Addresses are compared as perf prints them: map-relative, pc - 1 for
# return addresses.
#
# The workload runs as 3 processes, so samples of several address spaces interleave; a
# second run with --module-budget 1 (idle processes lose their unwinder after every
# switch) must print exactly the same.
#
# One known difference is allowed, and only where it applies: when the stack dump is
# full, perf 6.1 (its libunwind path) does not read the dump's last 8 bytes and ends the
# stack with a bogus frame 0 (printed ffffffffffffffff [unknown]); there our stack must
# start with perf's frames (minus that one), say "stack cut short", and may be longer.
set -u
work=${TEST_TMP:-$(mktemp -d)}
dump=$TOP/build/unwind/unwind-dump
dump_asan=$TOP/build/asan/unwind/unwind-dump
[ -x "$dump" ] || { echo "build/unwind/unwind-dump is not built"; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed"; exit 77; }
command -v gcc >/dev/null || { echo "gcc is not installed"; exit 77; }

gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
if ! perf record -q -F 1999 --call-graph dwarf -o "$work/perf.data" "$work/workload" 12 3 \
	>"$work/record.log" 2>&1; then
	tail -n 3 "$work/record.log"
	echo "perf record --call-graph dwarf does not work here"
	exit 77
fi
perf script -i "$work/perf.data" -F tid,time,ip,dso --ns --no-inline >"$work/perf.txt" 2>/dev/null || exit 1

# One line per sample: "TID TIME STATUS ADDR(DSO) ...", user frames only.
normalize() {
	awk '
	/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
		if (key != "") print key, status, frames
		key = $1 " " $2; frames = ""
		status = $3; for (i = 4; i <= NF; i++) status = status "_" $i
		if (status == "") status = "-"
		next
	}
	/^\t/ { if ($2 ~ /kernel/) next; frames = frames " " $1 $2; next }
	END { if (key != "") print key, status, frames }' "$1"
}

normalize "$work/perf.txt" | awk '{ $3 = "-"; print }' >"$work/perf.norm"
nr_perf=$(wc -l <"$work/perf.norm")
[ "$nr_perf" -ge 100 ] || { echo "only $nr_perf samples recorded"; exit 1; }

status=0
for bin in "$dump" "$dump_asan"; do
	[ -x "$bin" ] || continue
	"$bin" --stats "$work/perf.data" >"$work/ours.txt" 2>"$work/ours.stats" || { cat "$work/ours.stats"; exit 1; }
	cat "$work/ours.stats"
	normalize "$work/ours.txt" >"$work/ours.norm"
	# which samples we call cut short, for the comparison above
	awk '$3 ~ /^stack_cut_short/ { print $1, $2 }' "$work/ours.norm" >"$work/ours.cut"
	echo "== $bin"
	awk -v cutfile="$work/ours.cut" '
	BEGIN { while ((getline l < cutfile) > 0) ourcut[l] = 1 }
	NR == FNR { key = $1 " " $2; $3 = ""; ours[key] = $0; next }
	{ key = $1 " " $2 }
	!(key in ours) { print "sample " key ": missing from our output"; bad++; next }
	{
		n = split(ours[key], o, " ")
		nours = n - 2; nperf = NF - 3
		if (nperf > 0 && $NF == "ffffffffffffffff([unknown])") {
			cut++
			if (!(key in ourcut)) { print "sample " key ": perf ends with frame 0, we do not say cut short"; bad++; next }
			nperf--
			if (nours < nperf) { print "sample " key ": ours " nours " frames, perf " nperf; bad++; next }
		} else if (nours != nperf) {
			print "sample " key ": ours " nours " frames, perf " nperf
			print "  ours:" ours[key]; print "  perf:" $0; bad++; next
		}
		for (i = 1; i <= nperf; i++)
			if (o[i + 2] != $(i + 3)) {
				print "sample " key " frame " i - 1 ": ours " o[i + 2] ", perf " $(i + 3)
				bad++; next
			}
		same++
	}
	END {
		printf "%d samples agree (%d of them cut short in perf), %d differ\n", same, cut, bad
		exit (bad > 0 || same == 0)
	}' "$work/ours.norm" "$work/perf.norm" || status=1
	"$bin" --module-budget 1 "$work/perf.data" >"$work/ours-evicting.txt" 2>/dev/null
	cmp -s "$work/ours.txt" "$work/ours-evicting.txt" || { echo "--module-budget 1 changed the output"; status=1; }
	# The workload recurses deeper than the 8 KiB dump: some walks must be cut short,
	# and most must reach the outermost frame.
	grep -q 'stack cut short' "$work/ours.stats" || { echo "no walk was cut short"; status=1; }
	complete=$(awk '$1 == "complete" { print $2 }' "$work/ours.stats")
	[ "${complete:-0}" -ge $((nr_perf / 2)) ] || { echo "only ${complete:-0} complete walks"; status=1; }
done
exit $status
