#!/usr/bin/env bash
# Oracle: tests/unwind/progs/lld_plt_workload.c linked with lld, no frame pointers,
# recorded with `perf record --call-graph dwarf`; every sample's user frames must be
# the ones `perf script` prints (tests/unwind/lib.sh: plain and ASan, fast path and
# --libdwfl-only, --module-budget 1).
#
# The regression it catches: lld writes no .eh_frame for its .plt, so a sample whose pc
# is a PLT stub has no CFI for frame 0.  libdwfl's frame-pointer fallback then read
# garbage and we printed one frame with "bad memory read" where perf prints the
# caller (seen once in ~800 samples of perf_oracle_lld_vdso; here most samples sit in
# the stub).  Requires samples whose frame 0 is in .plt, as perf prints them.
set -u
. "$TOP/tests/unwind/lib.sh"
unwind_setup dump gcc python3 ld.lld

gcc -O2 -g -fno-builtin -fomit-frame-pointer -fuse-ld=lld -o "$work/workload" \
	"$TOP/tests/unwind/progs/lld_plt_workload.c" || exit 1
# the premise: .plt is there and no FDE covers it; prints .plt's file offsets
plt_range=$( { readelf -SW "$work/workload"; echo ==; readelf --debug-dump=frames "$work/workload"; } |
python3 -c '
import re, sys
text = sys.stdin.read()
secs, frames = text.split("\n==\n", 1)
m = re.search(r"\]\s+\.plt\s+PROGBITS\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", secs)
if not m: sys.exit(1)
addr, off, size = (int(x, 16) for x in m.groups())
for lo, hi in re.findall(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", frames):
    if int(lo, 16) < addr + size and addr < int(hi, 16): sys.exit(1)
print(off, off + size)') ||
	{ echo "no .plt, or .eh_frame covers it: the PLT case is not exercised"; exit 1; }
unwind_record -N -F 1999 "$work/workload" 300
status=0
compare_with_perf "$work/perf.data" "$work" || status=1
# perf's view: samples on a PLT stub (frame 0 at .plt's file offsets) with a caller
nr_plt=$(python3 -c '
import sys
lo, hi = (int(x) for x in sys.argv[1].split())
n = 0
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 5 and f[3].endswith("/workload)") and lo <= int(f[3].split("(")[0], 16) < hi:
        n += 1
print(n)' "$plt_range" "$work/perf.norm")
echo "$nr_plt samples on a PLT stub continued to a caller by perf"
[ "$nr_plt" -ge 5 ] || { echo "too few samples on the PLT (nothing tested)"; status=1; }
exit $status
