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
# One known difference is allowed, and only where it applies: perf 6.1 (its libunwind
# path) never reads the stack copy's last 8 bytes and ends a walk that needs them, or
# more, with a bogus frame 0 (printed ffffffffffffffff [unknown]); there our stack must
# start with perf's frames (minus that one) and either stop at the end of the copy too
# ("stack cut short", "stack partly copied") or have read its last word and be longer
# (tests/unwind/lib.sh, docs/unwind.md).
set -u
. "$TOP/tests/unwind/lib.sh"
unwind_setup dump gcc

gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
unwind_record -F 1999 "$work/workload" 12 3
status=0
compare_with_perf "$work/perf.data" "$work" || status=1
nr_perf=$(wc -l <"$work/perf.norm")
# The workload recurses deeper than the 8 KiB dump: some walks must be cut short, and
# most must reach the outermost frame.
grep -q 'stack cut short' "$work/ours.stats" || { echo "no walk was cut short"; status=1; }
complete=$(awk '$1 == "complete" { print $2 }' "$work/ours.stats")
[ "${complete:-0}" -ge $((nr_perf / 2)) ] || { echo "only ${complete:-0} complete walks"; status=1; }
# The driver's one-pass --quality (tests/unwind/unwind_stat.c) says what --stats says.
"$TOP/build/unwind/unwind-dump" --quality "$work/perf.data" >"$work/quality.txt" || status=1
sed -n '/^user stacks/,/^modules reported/p' "$work/ours.stats" | grep -v '^modules reported' |
	cmp -s - "$work/quality.txt" || { echo "--quality differs from --stats:"; cat "$work/quality.txt"; status=1; }
grep -q 'record with --call-graph dwarf,' "$work/quality.txt" || { echo "no dump size suggested"; status=1; }
exit $status
