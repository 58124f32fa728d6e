#!/usr/bin/env bash
# tracepoints: recordings with tracepoint events, printed by `tephra script` byte for byte
# as `perf script` prints them (the print fmt of each event's format, from the file's
# TRACING_DATA section or the pipe-mode record): sched:sched_switch (__print_flags, ?:,
# char arrays), sched:sched_wakeup, syscalls:sys_enter_openat (casts, %08lx), kmem/timer/
# raw_syscalls/mmap events (%pS, unresolved names, arrays), a cycles-like
# event mixed with a tracepoint with callchains, a pipe-mode stream, and uprobes made with
# `perf probe -x` (one with a __data_loc string argument).
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1

perf list tracepoint 2>/dev/null | grep -q 'sched:sched_switch' ||
	skip "no tracepoints here (tracefs not mounted?)"

record sched.data -a -e sched:sched_switch -e sched:sched_wakeup \
	-e syscalls:sys_enter_openat -- "$WL/forkexec" "$WL/recurse" 50
check_script sched sched.data
check_script sched-fields sched.data -F comm,pid,tid,event,trace
check_script sched-ns sched.data --ns
grep -q 'prev_state=' "$TEST_TMP/sched.perf" || fail "sched: no sched_switch sample recorded"
grep -q 'sys_enter_openat: dfd: 0x' "$TEST_TMP/sched.perf" || fail "sched: no openat sample recorded"

# print fmts with more of the language: %pS/%ps kernel symbols (kmem, hrtimer), __print_flags
# with masks built from casts and shifts (gfp_flags), __print_symbolic, names the kernel
# left unresolved (HRTIMER_MODE_*, vmemmap_base), array elements (REC->args[0]),
# unsigned comparisons (vm_unmapped_area), __get_str, and perf's reading of
# `flags & (A | B)` (timer_start, when the workload arms a timer)
record more.data -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc -e kmem:mm_page_alloc \
	-e timer:hrtimer_start -e timer:hrtimer_cancel -e timer:timer_start -e raw_syscalls:sys_enter \
	-e raw_syscalls:sys_exit -e mmap:vm_unmapped_area -- "$WL/forkexec" "$WL/recurse" 30
check_script more more.data
for ev in kmem:kmalloc raw_syscalls:sys_enter mmap:vm_unmapped_area; do
	grep -q " $ev: " "$TEST_TMP/more.perf" || fail "more: perf printed no $ev sample"
done

record mix.data -g -e cpu-clock -e sched:sched_switch -- "$WL/forkexec" "$WL/recurse" 50
check_script mix mix.data
grep -q 'sched:sched_switch: prev_comm' "$TEST_TMP/mix.perf" || fail "mix: no sched_switch sample"

perf record -q -N -o - -e sched:sched_switch -e sched:sched_wakeup -- \
	"$WL/forkexec" "$WL/recurse" 50 > pipe.data 2>record.log || { cat record.log; exit 1; }
check_script pipe pipe.data
perf script -i - < pipe.data > pipe-stdin.perf 2>/dev/null
"$TEPHRA" script - < pipe.data > pipe-stdin.tephra || fail "pipe from stdin: tephra script failed"
same_bytes "pipe from stdin" pipe-stdin.perf pipe-stdin.tephra

# a pipe-mode stream without event names (as perf before 5.x wrote them: no EVENT_DESC
# feature record, no EVENT_UPDATE): the names come from the tracing data, as in perf
python3 - pipe.data nameless.data <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
out, pos = bytearray(data[:16]), 16
while pos + 8 <= len(data):
    rtype, _, size = struct.unpack_from('<IHH', data, pos)
    extra = struct.unpack_from('<I', data, pos + 8)[0] if rtype == 66 else 0  # TRACING_DATA payload
    names = (rtype == 80 and struct.unpack_from('<Q', data, pos + 8)[0] == 12) or rtype == 78
    if not names:
        out += data[pos:pos + size + extra]
    pos += size + extra
open(sys.argv[2], 'wb').write(out)
PY
check_script pipe-nameless nameless.data
grep -q 'sched:sched_switch: prev_comm' "$TEST_TMP/pipe-nameless.perf" ||
	fail "pipe-nameless: perf did not name the event from the tracing data"

# uprobes on a program of our own: an integer and a string argument (__data_loc char[])
cat > probed.c <<'EOF'
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) int probed_work(int n, const char *s) { return n + (int)strlen(s); }
int main(int argc, char **argv)
{
	int t = 0;
	(void)argc;
	for (int i = 0; i < 40; i++)
		t += probed_work(i - 20, argv[0]);
	printf("%d\n", t);
	return 0;
}
EOF
cc -g -O1 -o probed probed.c || { echo "cc failed"; exit 1; }
group=tephra_test_$$
cleanup() { perf probe -q -d "$group:*" >/dev/null 2>&1; }
trap cleanup EXIT
if perf probe -q -x ./probed "$group:plain=probed_work" >probe.log 2>&1 &&
   perf probe -q -x ./probed "$group:args=probed_work n s:string" >>probe.log 2>&1; then
	record uprobe.data -e "$group:plain" -e "$group:args" -- ./probed
	check_script uprobe uprobe.data
	grep -q "$group:args: (.*) n=-20 s_string=\"./probed\"" "$TEST_TMP/uprobe.perf" ||
		fail "uprobe: perf did not print the probe's arguments: $(head -n 2 "$TEST_TMP/uprobe.perf")"
else
	partial "perf probe -x failed here, uprobes not checked: $(head -n 2 probe.log)"
fi

[ "$failures" -eq 0 ]
