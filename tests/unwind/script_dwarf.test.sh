#!/usr/bin/env bash
# `tephra script` on a `perf record --call-graph dwarf` recording prints the stacks
# `perf script` prints, sample for sample: kernel frames from the recorded chain, user
# frames unwound by src/unwind (through perf_session).  What is compared is each
# sample's address sequence (-F tid,time,ip), with the repeats that inline expansion
# adds removed: the unwinding, not symbol or inline naming (tested elsewhere).
# The one allowed difference is perf 6.1's at the end of a full stack dump (see
# docs/unwind.md): where perf ends a sample with a bogus frame ffffffffffffffff, we
# print the same frames before it and at most one real frame instead of it.
set -u
. "$TOP/tests/unwind/lib.sh"
unwind_setup gcc
gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
unwind_record -F 1999 "$work/workload" 12 3

# One line per sample: "TID TIME: ADDR ADDR ...", consecutive repeats dropped.
addresses() {
	awk '
	/^ *[0-9]+ +[0-9]+\.[0-9]+:/ { if (key != "") print key line; key = $1 " " $2; line = ""; last = ""; next }
	/^\t/ { if ($1 != last) line = line " " $1; last = $1 }
	END { if (key != "") print key line }' "$1"
}

perf script -i "$work/perf.data" -F tid,time,ip >"$work/perf.txt" 2>/dev/null || exit 1
addresses "$work/perf.txt" >"$work/perf.addr"
status=0
for bin in "$TEPHRA" "$TEPHRA_ASAN"; do
	[ -x "$bin" ] || continue
	echo "== $bin"
	"$bin" script -i "$work/perf.data" -F tid,time,ip >"$work/ours.txt" || { status=1; continue; }
	addresses "$work/ours.txt" >"$work/ours.addr"
	awk '
	NR == FNR { ours[FNR] = $0; n_ours = FNR; next }
	{
		total++
		if (ours[FNR] == $0) { same++; next }
		nb = split(ours[FNR], o, " ")
		if ($NF == "ffffffffffffffff" && (nb == NF - 1 || nb == NF)) {
			ok = 1
			for (i = 1; i < NF; i++) if (o[i] != $i) ok = 0
			if (ok) { cut++; next }
		}
		if (bad++ < 5) { print "sample " FNR " differs:"; print "  ours: " ours[FNR]; print "  perf: " $0 }
	}
	END {
		if (n_ours != total) { print "ours has " n_ours " samples, perf " total; bad++ }
		printf "%d samples identical, %d differ only by perf'"'"'s end-of-dump frame, %d differ\n", same, cut, bad
		exit (bad > 0 || same < total / 2)
	}' "$work/ours.addr" "$work/perf.addr" || status=1
done
exit $status
