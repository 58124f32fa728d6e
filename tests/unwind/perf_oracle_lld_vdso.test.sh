#!/usr/bin/env bash
# Oracle: tests/unwind/progs/lld_vdso_workload.c linked with lld, no frame pointers,
# recorded with `perf record --call-graph dwarf`; every sample's user frames must be
# the ones `perf script` prints (tests/unwind/lib.sh: plain and ASan, fast path and
# --libdwfl-only, --module-budget 1).
#
# Two regressions it catches (both seen on the Rust workload, whose rustc links with
# lld):
#   - the load bias: lld does not page-align segments' file offsets, so the text
#     segment shares its first file page with the read-only segment (here all segments
#     start in page 0).  Taking the first segment that reaches into the mapping's
#     pgoff gave a bias one page off: no FDE found anywhere in the program, and
#     libdwfl's frame-pointer fallback skipped callers (this very test: 702 of 703
#     samples differed);
#   - the vdso: a recording made with -N has no saved [vdso]; without our own copy's
#     .eh_frame the walk left clock_gettime's frames out.  Requires samples in [vdso]
#     followed by a libc frame (clock_gettime), as perf prints them.
set -u
. "$TOP/tests/unwind/lib.sh"
unwind_setup dump gcc python3 ld.lld

gcc -O2 -g -fomit-frame-pointer -fuse-ld=lld -o "$work/workload" \
	"$TOP/tests/unwind/progs/lld_vdso_workload.c" || exit 1
# the premise: the text segment's first file page is also another segment's
readelf -lW "$work/workload" | python3 -c '
import sys
pages = [int(l.split()[1], 16) // 4096 for l in sys.stdin if l.split()[:1] == ["LOAD"]]
sys.exit(0 if any(a == b for a, b in zip(pages, pages[1:])) else 1)' ||
	{ echo "lld page-aligned the segments: the bias case is not exercised"; exit 1; }
unwind_record -N -F 1999 "$work/workload" 400
status=0
compare_with_perf "$work/perf.data" "$work" || status=1
# perf's view: samples in the vdso whose next frame is libc's clock_gettime
nr_vdso=$(awk '$4 ~ /\[vdso\]/ && $5 ~ /libc/' "$work/perf.norm" | wc -l)
echo "$nr_vdso samples in [vdso] continued into libc by perf"
[ "$nr_vdso" -ge 5 ] || { echo "too few samples through the vdso (nothing tested)"; status=1; }
exit $status
