#!/usr/bin/env python3
"""go_stacks.py PERF-SCRIPT-TEXT TEPHRA-SCRIPT-TEXT: the Go test's check of the samples taken
in the workload's own code (tests/workloads/gowork.go), both texts printed with --no-inline.
Each such sample of tephra must be unwound through the program's functions to the goroutine's
start: ... main.work, main.main, runtime.main, runtime.goexit.abi0, its last four frames.  perf
script's block for the same sample (the same header line) must be a first part of tephra's:
where it also reaches runtime.goexit.abi0, all of it; where it stops early, shorter.  Prints
how deep perf's user stacks went (kernel frames not counted); exit 1 on any failed check."""
import collections
import sys

from compare_blocks import blocks  # perf script text split at blank lines

TAIL = ["main.work", "main.main", "runtime.main", "runtime.goexit.abi0"]


def name(frame):
    # "\t  addr symbol+0xoff (object)" -> "symbol"
    return frame.split()[1].rsplit("+0x", 1)[0]


perf = [[l for l in b.split("\n") if l] for b in blocks(sys.argv[1])]
ours = [[l for l in b.split("\n") if l] for b in blocks(sys.argv[2])]
if len(perf) != len(ours):
    print("FAIL: perf printed %d samples, tephra %d" % (len(perf), len(ours)))
    sys.exit(1)
bad, checked, depth, perf_full = 0, 0, collections.Counter(), 0
for p, t in zip(perf, ours):
    names = [name(f) for f in t[1:]]
    if "main.work" not in names:
        continue
    checked += 1
    if p[0] != t[0]:
        print("FAIL: sample headers differ: perf %r, tephra %r" % (p[0], t[0]))
        sys.exit(1)
    if names[-4:] != TAIL:
        bad += 1
        if bad <= 3:
            print("FAIL: tephra's stack does not end with %s: %s" % (";".join(TAIL), ";".join(names)))
        continue
    depth[sum(1 for f in p[1:] if not f.endswith("([kernel.kallsyms])"))] += 1
    if name(p[-1]) == "runtime.goexit.abi0":
        perf_full += 1
        ok = p == t
    else:
        ok = len(p) < len(t) and t[: len(p)] == p
    if not ok:
        bad += 1
        if bad <= 3:
            print("FAIL: perf's stack is not a first part of tephra's:\n  perf   %s\n  tephra %s" %
                  (";".join(name(f) for f in p[1:]), ";".join(names)))
print("%d samples in main.work: tephra reached runtime.goexit.abi0 through main.main in %d; "
      "perf script's user frames: %s (reaching runtime.goexit.abi0 in %d)" %
      (checked, checked - bad, ", ".join("%d deep in %d samples" % kv for kv in sorted(depth.items())),
       perf_full))
if checked < 100:
    print("FAIL: only %d samples in main.work (nothing tested)" % checked)
    sys.exit(1)
sys.exit(1 if bad else 0)
