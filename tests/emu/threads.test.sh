#!/usr/bin/env bash
# tests/guests/threads.c: each guest thread has its own stack; the worker paths start at
# the thread's entry, and the instructions of sum_to (run only by the two workers) equal
# what QEMU logged there (see below).  (The rest depends on thread scheduling.)
. "$TOP/tests/emu/lib.sh"
cc_guest thr threads.c -O2 -pthread
run_both thr || { cat emu.err; fail "tephra emu"; }
grep -q 'underflows 0,' emu.err || { cat emu.err; fail "underflows"; }
for w in worker_a worker_b; do
	grep -q "^__thread_start;start_thread;$w;sum_to [0-9]*$" thr.folded || { cat thr.folded; fail "$w path"; }
done
grep -q 'main;.*sum_to' thr.folded && fail "sum_to charged to the main thread's stack"
got=$(awk '/;sum_to [0-9]+$/ { s += $NF } END { print s + 0 }' thr.folded)
qemu_n=$(python3 - thr thr.pcs <<'PY'
import subprocess, sys
out = subprocess.run(["riscv64-linux-gnu-nm", "-S", sys.argv[1]], capture_output=True, text=True).stdout
for line in out.splitlines():
    f = line.split()
    if len(f) == 4 and f[3] == "sum_to":
        lo, hi = int(f[0], 16), int(f[0], 16) + int(f[1], 16)
print(sum(1 for l in open(sys.argv[2]) if lo <= int(l, 16) < hi))
PY
)
# With several threads QEMU may log a one-instruction block and then leave it to serve
# another thread's exit request, logging it again: its count can be a little higher.
[ "$got" -le "$qemu_n" ] && [ $((qemu_n - got)) -le 2 ] || fail "sum_to: profile $got, QEMU $qemu_n"

# Offline from a log with interleaved threads ("Trace CPU:"): one stack per CPU.
env -i PATH="$PATH" qemu-riscv64 -singlestep -d exec,nochain -D thr.log ./thr >/dev/null 2>&1 </dev/null
"$TEPHRA" trace --elf thr -o thr.trace.folded thr.log 2>/dev/null || fail "trace of the threads log"
for w in worker_a worker_b; do
	grep -q "^__thread_start;start_thread;$w;sum_to [0-9]*$" thr.trace.folded ||
		{ cat thr.trace.folded; fail "offline $w path"; }
done
[ "$(total thr.trace.folded)" = "$(grep -c '^Trace' thr.log)" ] || fail "offline total"
echo ok
