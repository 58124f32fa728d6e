#!/usr/bin/env bash
# `tephra script` on a `perf record --call-graph dwarf` recording prints what
# `perf script --no-inline` prints (tephra script does not expand inline frames yet),
# sample for sample: kernel frames from the recorded chain, user frames unwound by
# src/unwind.  The one allowed difference is perf 6.1's at the end of a full stack dump
# (see docs/unwind.md): where perf ends a sample with a bogus
# "ffffffffffffffff [unknown] ([unknown])" frame, we print the same frames before it and
# at most one real frame instead of it.
set -u
work=${TEST_TMP:-$(mktemp -d)}
command -v perf >/dev/null || { echo "perf is not installed"; exit 77; }
command -v gcc >/dev/null || { echo "gcc is not installed"; exit 77; }
gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
if ! perf record -q -F 1999 --call-graph dwarf -o "$work/perf.data" "$work/workload" 30 \
	>"$work/record.log" 2>&1; then
	tail -n 3 "$work/record.log"
	echo "perf record --call-graph dwarf does not work here"
	exit 77
fi
perf script -i "$work/perf.data" --no-inline >"$work/perf.txt" 2>/dev/null || exit 1

status=0
for bin in "$TEPHRA" "$TEPHRA_ASAN"; do
	[ -x "$bin" ] || continue
	echo "== $bin"
	"$bin" script -i "$work/perf.data" >"$work/ours.txt" || { status=1; continue; }
	# Samples are blocks separated by blank lines; compare block by block.
	awk -v RS= -v FS='\n' '
	NR == FNR { ours[FNR] = $0; n_ours = FNR; next }
	{
		total++
		if (ours[FNR] == $0) { same++; next }
		nb = split(ours[FNR], o, "\n")
		if ($NF == "\tffffffffffffffff [unknown] ([unknown])" && (nb == NF - 1 || nb == NF)) {
			ok = 1
			for (i = 1; i < NF; i++) if (o[i] != $i) ok = 0
			if (ok) { cut++; next }
		}
		if (bad++ < 5) { print "sample " FNR " differs:"; print "ours:\n" ours[FNR]; print "perf:\n" $0 }
	}
	END {
		if (n_ours != total) { print "ours has " n_ours " samples, perf " total; bad++ }
		printf "%d samples identical, %d differ only by perf'"'"'s end-of-dump frame, %d differ\n", same, cut, bad
		exit (bad > 0 || same < total / 2)
	}' "$work/ours.txt" "$work/perf.txt" || status=1
done
exit $status
