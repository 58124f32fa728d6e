#!/usr/bin/env bash
# offcpu: off-CPU and wall-clock folds of a real program recorded with the machine's perf
# (sched:sched_switch with DWARF call graphs, context-switch records, cpu-clock), checked
# against what `perf script` prints of the same file (oracle.py works the intervals out
# of its prev_state, switch and sample lines): per wait, the nanoseconds must be the
# same, in all four modes (--off-cpu, --wall, each with and without --preempted).  Then
# what the workload guarantees whatever the load: each wait lasts at least what it
# asked for, the wall profile of the main thread adds up to its lifetime, and its
# CPU profile is the spin.
. "$TOP/tests/offcpu/lib.sh"

record_offcpu_workload

for mode in offcpu offcpu-preempted wall wall-preempted; do
	case $mode in
	offcpu*) opts=(--off-cpu) ;;
	wall*) opts=(--wall) ;;
	esac
	[[ $mode == *-preempted ]] && opts+=(--preempted)
	python3 "$TOP/tests/offcpu/oracle.py" "$mode" "$M" <oc.txt >"$mode.expected"
	"$TEPHRA" fold -q "${opts[@]}" oc.data >"$mode.folded" 2>"$mode.err" ||
		{ fail "$mode: tephra fold failed: $(head -n 3 "$mode.err")"; continue; }
	{ python3 "$TOP/tests/offcpu/by_marker.py" "$M" <"$mode.folded"
	  if grep -q 'still off the CPU at the end' "$mode.err"; then echo "at_end warned"; else echo "at_end 0"; fi
	} >"$mode.got"
	same_bytes "$mode: ns per wait" "$mode.expected" "$mode.got"
done
grep -q ';\[off-cpu: S\] ' wall.folded || fail "wall: no [off-cpu: S] leaf frame"
# switch-outs without a sample (any thread, blocked ones): tephra's warning counts perf's
want=$(awk '
	{ tid = $2 }
	/ sched:sched_switch: / { s[tid] = 1; next }
	/PERF_RECORD_SWITCH OUT/ { if (!s[tid] && !/preempt/) n++; s[tid] = 0; next }
	/PERF_RECORD_SWITCH IN/ { s[tid] = 0 }
	END { print n + 0 }' oc.txt)
got=$(sed -n 's/^\([0-9][0-9]*\) switch-out(s) without a sched_switch sample.*/\1/p' offcpu.err)
echo "switch-outs without a sample: perf's text $want, tephra ${got:-0}"
[ "${got:-0}" = "$want" ] || fail "switch-outs without a sample: tephra says ${got:-0}, perf's text has $want"
grep -q 'off-cpu:' offcpu.folded && fail "offcpu: a state leaf frame outside --wall"

# the workload's guarantees (lower bounds hold under any load): wall time of the main
# thread in each wait; its wall profile adds up to its lifetime
main=$(awk '/ sched:sched_switch: .*prev_comm=offcpu/ {print $2; exit}' oc.txt)
"$TEPHRA" fold -q --wall --preempted --tid oc.data >tid.folded
python3 "$TOP/tests/offcpu/by_marker.py" "$M" "$main" <tid.folded >tid.got
python3 - "$main" oc.txt tid.got tid.folded <<'PY' || fail "the workload's waits"
import re, sys
main, text, got, folded = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
w = dict((l.split()[0], int(l.split()[1])) for l in open(got))
# on-CPU time is sampled: cpu-clock's timer starts a whole period anew at each
# switch-in, so each stretch on the CPU may go unsampled by up to one period
outs = sum(1 for l in open(text) if re.match(r"^\s*\S+\s+%s\s+\d+\.\d+:\s+PERF_RECORD_SWITCH OUT" % main, l))
period = max([int(m.group(1)) for m in (re.match(r"^.*:\s+(\d+)\s+cpu-clock", l) for l in open(text)) if m] or [0])
lost = outs * period / 1e6
# Under load the kernel now and then writes a switch-out record without its
# sched_switch sample: that wait has no stack (tephra warns and leaves it out).  Such
# waits are found in perf's text: a non-preempt switch-out of main with no sample of it
# since its last switch-in.
unsampled, sampled, start = 0, False, None
for l in open(text):
    m = re.match(r"^\s*\S+\s+%s\s+(\d+)\.(\d+):\s+(.*)$" % main, l)
    if not m:
        continue
    t, what = int(m.group(1)) * 10**9 + int(m.group(2)), m.group(3)
    if "sched:sched_switch:" in what:
        sampled = True
    elif what.startswith("PERF_RECORD_SWITCH OUT"):
        if not sampled and "preempt" not in what:
            start = t
        sampled = False
    elif what.startswith("PERF_RECORD_SWITCH IN"):
        if start is not None:
            unsampled += t - start
        start, sampled = None, False
print("main thread: %.1f ms off the CPU after switch-outs without a sample" % (unsampled / 1e6))
ok = True
for name, ms in (("wait_sleep", 200), ("wait_pipe", 300), ("wait_mutex", 250), ("spin", 500)):
    have = w.get(name, 0) / 1e6
    print("%s: %.1f ms (asked %d)" % (name, have, ms))
    if have == 0 and name != "spin" and unsampled >= ms * 1e6:
        print("  not checked: its switch-out has no sched_switch sample in the recording")
        continue
    if have < ms - lost:
        print("FAIL: %s lasted %.1f ms, under the %d ms it asked for" % (name, have, ms)); ok = False
# its lifetime: from its exec to its last switch-out, as perf script prints them
times = [int(m.group(1)) * 10**9 + int(m.group(2)) for m in
         (re.match(r"^\s*\S+\s+%s\s+(\d+)\.(\d+):" % main, l) for l in open(text)) if m]
life = (max(times) - min(times)) / 1e6
total = sum(int(l.rsplit(" ", 1)[1]) for l in open(folded)
            if l.split(";")[0].endswith("/" + main)) / 1e6
total += unsampled / 1e6  # the waits without a stack are not in the profile
slack = 0.01 * life + lost
print("main thread: wall %.1f ms, lifetime %.1f ms, %d switch-outs (slack %.1f ms)" % (total, life, outs, slack))
if abs(total - life) > slack:
    print("FAIL: wall %.1f ms is not the thread's lifetime %.1f ms" % (total, life)); ok = False
sys.exit(0 if ok else 1)
PY
"$TEPHRA" fold -q --event cpu-clock --tid oc.data >cpu.folded
python3 "$TOP/tests/offcpu/by_marker.py" "$M" "$main" <cpu.folded >cpu.got
awk '{ t += $2; if ($1 == "spin") s = $2 } END { if (!(s >= 0.9 * t)) { print "FAIL: spin is " s " of " t " ns of CPU"; exit 1 } }' cpu.got ||
	fail "cpu: the spin is not the main thread's CPU profile"
exit $((failures > 0))
