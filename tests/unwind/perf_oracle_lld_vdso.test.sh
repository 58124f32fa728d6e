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
work=${TEST_TMP:-$(mktemp -d)}
dump=$TOP/build/unwind/unwind-dump
[ -x "$dump" ] || { echo "build/unwind/unwind-dump is not built"; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed"; exit 77; }
command -v gcc >/dev/null || { echo "gcc is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
command -v ld.lld >/dev/null || { echo "ld.lld is not installed (Debian: lld)"; exit 77; }

gcc -O2 -g -fomit-frame-pointer -fuse-ld=lld -o "$work/workload" \
	"$TOP/tests/unwind/progs/lld_vdso_workload.c" || exit 1
# the premise: the text segment's first file page is also another segment's
readelf -lW "$work/workload" | python3 -c '
import sys
pages = [int(l.split()[1], 16) // 4096 for l in sys.stdin if l.split()[:1] == ["LOAD"]]
sys.exit(0 if any(a == b for a, b in zip(pages, pages[1:])) else 1)' ||
	{ echo "lld page-aligned the segments: the bias case is not exercised"; exit 1; }
if ! perf record -q -N -F 1999 --call-graph dwarf -o "$work/perf.data" "$work/workload" 400 \
	>"$work/record.log" 2>&1; then
	tail -n 3 "$work/record.log"
	echo "perf record --call-graph dwarf does not work here"
	exit 77
fi
. "$TOP/tests/unwind/lib.sh"
status=0
compare_with_perf "$work/perf.data" "$work" || status=1
# perf's view: samples in the vdso whose next frame is libc's clock_gettime
nr_vdso=$(awk '$4 ~ /\[vdso\]/ && $5 ~ /libc/' "$work/perf.norm" | wc -l)
echo "$nr_vdso samples in [vdso] continued into libc by perf"
[ "$nr_vdso" -ge 5 ] || { echo "too few samples through the vdso (nothing tested)"; status=1; }
exit $status
