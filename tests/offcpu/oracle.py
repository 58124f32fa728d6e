#!/usr/bin/env python3
"""oracle.py MODE MARKERS < perf-script-text: the off-CPU (or wall) nanoseconds per
marker function, worked out from what `perf script` prints of a recording, as the
off-CPU and wall tests' oracle.

The text is `perf script --ns --show-switch-events --show-task-events
--show-mmap-events -F comm,tid,time,event,trace,period,ip,sym`.  A sched_switch whose
prev_state (as perf prints it) is charged opens an interval for prev_pid at its time,
with the stack printed under it; the thread's next "PERF_RECORD_SWITCH IN", or a
sched_switch naming it as next_pid, closes it; intervals still open are closed at the
last time printed.  MODE: offcpu (blocked states: not R, R+, X, Z), offcpu-preempted
(also R, R+), wall (offcpu plus each cpu-clock sample's period), wall-preempted.
A stack's marker is its innermost frame named in MARKERS (comma-separated), else
"other".  Prints "marker ns" lines, sorted, and "at_end N".

oracle.py MODE MARKERS DIR: also writes DIR/TID.periods per thread with a charged
interval or (wall) a sample: the weights of its intervals and samples one a line, in
time order, an interval at its switch-out (what a speedscope profile of it holds).

oracle.py --slice "A,B C,D" MODE MARKERS: the profile of `--time` for the ranges A..B,
C..D (ns, inclusive, in any order, overlapping or not): each interval charged with the
length of its overlap with the union of the ranges, each cpu-clock sample (wall) kept
when its time lies in one of them."""
import re
import sys

slices = None
if sys.argv[1] == "--slice":
    slices = [tuple(int(x) for x in r.split(",")) for r in sys.argv[2].split()]
    del sys.argv[1:3]


def in_slice(t):
    return slices is None or any(a <= t <= b for a, b in slices)


def overlap(start, end):
    """The nanoseconds of START..END inside the union of the slices: the length of the
    set of points, measured by walking the ranges' ends in order."""
    if slices is None:
        return end - start
    cuts = sorted({start, end} | {x for a, b in slices for x in (a, b) if start < x < end})
    return sum(hi - lo for lo, hi in zip(cuts, cuts[1:])
               if any(a <= lo and hi <= b for a, b in slices))


mode = sys.argv[1]
markers = set(sys.argv[2].split(","))
preempted = mode.endswith("-preempted")
wall = mode.startswith("wall")

head = re.compile(r"^\s*(.*?)\s+(-?\d+)\s+(\d+)\.(\d+):\s+(.*)$")
totals = {}
pending = {}  # tid -> (out time, marker)
order_dir = sys.argv[3] if len(sys.argv) > 3 else None
weights = {}  # tid -> [(time, ns)] in the order met
last = 0
at_end = 0


def add(marker, ns):
    if slices is not None and not ns:
        return  # nothing of it in the slice: its stack is not in the profile
    totals[marker] = totals.get(marker, 0) + ns


def close(tid, t):
    p = pending.pop(tid, None)
    if p is not None:
        ns = overlap(p[0], t) if t >= p[0] else 0
        add(p[1], ns)
        weights.setdefault(tid, []).append((p[0], ns))


lines = sys.stdin.read().split("\n")
i = 0
while i < len(lines):
    m = head.match(lines[i])
    i += 1
    if not m:
        continue
    tid = int(m.group(2))
    t = int(m.group(3)) * 1000000000 + int(m.group(4).ljust(9, "0"))
    rest = m.group(5)
    last = max(last, t)
    stack = []
    while i < len(lines) and lines[i].startswith("\t"):
        parts = lines[i].split()
        if len(parts) >= 2:
            stack.append(parts[1].split("+")[0])
        i += 1
    marker = next((f for f in stack if f in markers), "other")
    if rest.startswith("PERF_RECORD_SWITCH IN") or rest.startswith("PERF_RECORD_SWITCH_CPU_WIDE IN"):
        close(tid, t)
        continue
    if "sched:sched_switch:" in rest:
        f = dict(re.findall(r"(\w+)=(\S+)", rest.split("==>")[0]))
        nxt = int(re.search(r"next_pid=(-?\d+)", rest).group(1))
        prev = int(f["prev_pid"])
        close(prev, t)  # a thread switched out again ran in between
        st = f["prev_state"]
        if st[0] == "R":
            charged = preempted
        else:
            charged = st[0] not in "XZ"
        if charged:
            pending[prev] = (t, marker)
        close(nxt, t)
        continue
    pm = re.match(r"^\s*(\d+)\s+cpu-clock", rest)
    if pm:
        close(tid, t)
        if wall and in_slice(t):
            add(marker, int(pm.group(1)))
            weights.setdefault(tid, []).append((t, int(pm.group(1))))
        continue
    if "sched:" not in rest and not rest.startswith("PERF_RECORD"):
        close(tid, t)

for tid in list(pending):
    at_end += 1
    close(tid, last)
if order_dir:
    for tid, ws in weights.items():
        with open("%s/%d.periods" % (order_dir, tid), "w") as f:
            # a stable sort: equal times keep the order met
            f.write("".join("%d\n" % ns for _, ns in sorted(ws, key=lambda w: w[0])))
for k in sorted(totals):
    print(k, totals[k])
print("at_end", at_end)
