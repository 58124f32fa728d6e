#!/usr/bin/env bash
# srcline_dwarf5: the source line of a row that keeps the DWARF 5 line program's initial
# file register (1).  binutils 2.40's addr2line, which perf 6.1 runs for -F srcline,
# prints such rows under the unit's primary file (entry 0): ld.so's handle_amd, defined
# in dl-cacheinfo.h (entry 1 of the dl-get-cpu-features.c unit), prints as
# dl-get-cpu-features.c:327, a line of another function.  llvm-addr2line and libdw read
# entry 1, as DWARF 5 says.  tests/symbol/inline compared dso_srcline (DWARF's answer)
# with perf and failed whenever a sample of its recording landed there; it was flaky.
# Here, on every byte of the unit's functions that precede the first "set file" (fixed
# addresses of this machine's ld.so, found from its symbols and line program):
# - compare_srcline.py, fed the lines perf prints there (addr2line's answers, which is
#   what perf prints), agrees: tephra script's srcline (dso_frame_srcline) is perf's;
# - symbol_lookup --srcline (dso_srcline: `tephra fold --srcline`) is llvm-addr2line's.
. "$TOP/tests/symbol/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
command -v addr2line >/dev/null 2>&1 || skip "addr2line is not installed (Debian: binutils)"
[ -x "$LOOKUP" ] || fail "$LOOKUP not built"
cd "$TEST_TMP"
ldso=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null)
[ -n "$ldso" ] && [ -f "$ldso" ] || skip "no x86-64 ld.so"
bid=$(readelf -n "$ldso" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
[ -n "$bid" ] && [ -f "$dbg" ] || skip "ld.so's debug file is not installed (Debian: libc6-dbg)"

# The addresses: handle_zhaoxin and handle_amd, the functions of the
# dl-get-cpu-features.c unit before its line program first sets a file (glibc 2.36), in
# the lookup's space (file offsets, as perf prints them).
readelf -sW "$dbg" >syms.txt 2>/dev/null
readelf -lW "$ldso" >segs.txt 2>/dev/null
python3 - "$ldso" >frames.txt <<'PY' || fail "no handle_zhaoxin/handle_amd in $dbg"
import sys
ldso = sys.argv[1]
loads = []
for l in open("segs.txt"):
    p = l.split()
    if p and p[0] == "LOAD":
        loads.append((int(p[2], 16), int(p[1], 16), int(p[5], 16)))  # vaddr, offset, filesz
funcs = {}
for l in open("syms.txt"):
    p = l.split()
    if len(p) >= 8 and p[3] == "FUNC" and p[7] in ("handle_zhaoxin", "handle_amd"):
        funcs[p[7]] = (int(p[1], 16), int(p[2]))
if len(funcs) != 2:
    sys.exit(1)
for name, (start, size) in sorted(funcs.items()):
    for a in range(start, start + size):
        seg = [s for s in loads if s[0] <= a < s[0] + s[2]]
        if seg:
            print("%x %x" % (a, a - seg[0][0] + seg[0][1]))
PY
[ -s frames.txt ] || fail "no addresses"
cut -d' ' -f1 frames.txt | addr2line -e "$dbg" | sed -E 's/ \(discriminator [0-9]+\)$//; s#^.*/##' >binutils.txt
# what perf script -F ip,dso,srcline prints for a sample at each address
paste -d' ' frames.txt binutils.txt | awk -v dso="$ldso" '{ printf "\t%16s (%s)\n  %s\n\n", $2, dso, $3 }' >perf.script
grep -q "^  dl-get-cpu-features.c:" perf.script ||
	skip "addr2line names no row of ld.so's handle_amd as dl-get-cpu-features.c: another glibc or binutils"
echo "$bid $ldso" >perf.bids
python3 "$TOP/tests/symbol/compare_srcline.py" perf.script perf.bids "$LOOKUP" >compare.out ||
	{ head -n 5 compare.out; fail "tephra script's source lines differ from perf's (addr2line's)"; }
tail -n 1 compare.out

# DWARF's answer: llvm-addr2line reads entry 1 as DWARF 5 means it
if want_tool llvm-addr2line "DWARF's answer" "Debian: llvm"; then
	cut -d' ' -f1 frames.txt | llvm-addr2line -e "$dbg" | sed -E 's/ \(discriminator [0-9]+\)$//; s#^.*/##' >llvm.txt
	grep -q "^dl-cacheinfo.h:" llvm.txt || fail "llvm-addr2line names no row dl-cacheinfo.h"
	cut -d' ' -f2 frames.txt | awk -v dso="$ldso" -v bid="$bid" '{ print dso, bid, $1 }' |
		"$LOOKUP" --srcline >ours.txt || fail "symbol_lookup --srcline"
	if ! cmp -s llvm.txt ours.txt; then
		diff llvm.txt ours.txt | head -n 5
		fail "dso_srcline differs from llvm-addr2line"
	fi
	echo "ok: $(wc -l <ours.txt) addresses: dso_srcline is llvm-addr2line's answer"
fi
