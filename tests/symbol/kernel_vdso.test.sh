#!/usr/bin/env bash
# Kernel frames ([kernel.kallsyms] from /proc/kallsyms when the recorded kernel is the
# running one) and [vdso] frames of a syscall-heavy program: first with the vdso image
# perf record put in the build-id cache, then without it (perf 6.1 script then names
# no vdso frame, even on the same kernel: neither may we).
. "$TOP/tests/symbol/lib.sh"
need_perf
cd "$TEST_TMP"
gcc -O1 -g -fno-omit-frame-pointer -o sys "$PROGS/syscalls.c" || fail build
record sys.data ./sys 60000
compare sys.data
expect_line sys.data "\(\[kernel\.kallsyms\]\)$"
if grep -Eq "[^ ]+\+0x[0-9a-f]+ \(\[vdso\]\)$" sys.data.script; then
	rm -rf "$BID/[vdso]"
	find "$BID/.build-id" -lname '*vdso*' -delete 2>/dev/null
	compare sys.data
	expect_line sys.data "\[unknown\] \(\[vdso\]\)$"
else
	echo "note: no named vdso frame sampled; vdso fallback not checked"
fi
