#!/usr/bin/env bash
# MMAP2 records without prot and flags, as kernels before 3.16 that have MMAP2 wrote
# them (RHEL and CentOS 7's 3.10, 3.12 to 3.15): the file name follows ino_generation.
# A recording made here is rewritten into that layout (tests/perfdata/mmap2_drop_prot.py)
# and must give the same `tephra script` and `tephra fold` output as the original.  Read
# with the current layout, each file name lost its first 8 bytes (/usr/lib/x86_64-... became
# /x86_64-...: no object found, frames [unknown]) or, for short names, the record ran past
# its end and was skipped.  perf 6.1 reads the rewritten file that way (its names are cut
# by 8 bytes); the original recording is the oracle here.
set -u
. "$(dirname "$0")/lib.sh"
require_perf
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
command -v cc >/dev/null || { echo "cc is not installed"; exit 77; }
cd "$TEST_TMP" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The workload spends most of its time in ld.so (dlsym lookups), so ld.so frames, whose
# name must be read whole, are certain (a short program's samples once missed ld.so).
cc -O1 -g -o p "$TOP/tests/perfdata/dlsym_loop.c" || exit 1
perf record -q -N -g -e cpu-clock -F 2000 -o new.data ./p 2000000 >/dev/null 2>&1 ||
	{ echo "perf record failed"; exit 1; }
ldso='/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\|/lib.*/ld-linux'
perf script -i new.data 2>/dev/null | grep -q "$ldso" ||
	{ echo "FAIL: perf script shows no ld.so frame in the original: nothing tested"; exit 1; }
n=$(python3 "$TOP/tests/perfdata/mmap2_drop_prot.py" new.data old.data) || exit 1
echo "$n"
[ "${n%% *}" -ge 3 ] || fail "too few MMAP2 records rewritten ($n): nothing tested"
for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	"$bin" script new.data >new.txt 2>new.err || fail "script on the original failed"
	"$bin" script old.data >old.txt 2>old.err || fail "script on the old layout failed: $(head -n 2 old.err)"
	cmp -s new.txt old.txt || { fail "$bin script: the old layout reads differently:"; diff new.txt old.txt | head -n 6; }
	grep -q warning old.err && fail "$bin script warned on the old layout: $(grep -m 2 warning old.err)"
	"$bin" fold new.data >new.folded 2>/dev/null
	"$bin" fold old.data >old.folded 2>/dev/null
	cmp -s new.folded old.folded || fail "$bin fold: the old layout folds differently"
	grep -q "$ldso" old.txt ||
		fail "no ld.so frame named with its full path"
done
[ "$failures" -eq 0 ] && echo ok
exit $((failures > 0))
