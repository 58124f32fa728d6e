#!/usr/bin/env python3
"""script_compare.py PERF-SCRIPT-TEXT TEPHRA-SCRIPT-TEXT [VERDICT-FILE]: whether tephra script printed
what perf script printed, sample by sample (blocks separated by blank lines).  Where a
sample differs it is put in one of the known classes of perf 6.1's DWARF unwinding
failures (docs/perf-dwarf.md), each counted, or it is a mismatch:
  - end of copy: perf never reads the stack copy's last 8 bytes and ends the sample with
    the bogus frame "ffffffffffffffff [unknown] ([unknown])"; tephra prints the frames
    before it and goes on (docs/unwind.md);
  - stopped early: perf's lines are the first lines of tephra's (its walk gave up; tephra
    goes on, to _start or clone3 when the copy holds them);
  - skipped frames: perf's lines are tephra's with some taken out (perf's fallback
    without CFI for a frame, e.g. in the vdso of a -N recording);
  - astray last frame: perf's lines are tephra's first ones, then one last frame perf
    cannot name ("[unknown]", an address in no function) where its walk left the stack;
  - skipped, then astray: both of the last two at once (perf skipped a caller, e.g. the
    Rust std function that called malloc, read a wrong return address and so left the
    stack).
Prints the counts and the first sample of any other kind; exit 1 when there is one.
With VERDICT-FILE, also writes there one short line for bench/run-all's table: "no: "
and the classes found (e.g. "no: perf stopped early 67 (100.0%)") or "DIFFERS: ..."."""
import sys

BOGUS = "ffffffffffffffff [unknown] ([unknown])"


def blocks(path):
    cur = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                cur.append(line)
            elif cur:
                yield cur
                cur = []
    if cur:
        yield cur


def subsequence(short, long):
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def verdict(text):
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            f.write(text + "\n")


def differs(text):
    print(text)
    verdict(text.split(":")[0])
    sys.exit(1)


perf, ours = list(blocks(sys.argv[1])), list(blocks(sys.argv[2]))
if len(perf) != len(ours):
    differs("DIFFERS: perf printed %d samples, tephra %d" % (len(perf), len(ours)))
count = {"identical": 0, "end of copy": 0, "stopped early": 0, "skipped frames": 0,
         "astray last frame": 0, "skipped, then astray": 0, "other": 0}
first_other = None
for i, (p, t) in enumerate(zip(perf, ours)):
    if p == t:
        count["identical"] += 1
    elif p[0] != t[0]:
        differs("DIFFERS at sample %d: perf %r, tephra %r" % (i + 1, p[0], t[0]))
    elif p[-1].strip() == BOGUS and t[: len(p) - 1] == p[:-1]:
        count["end of copy"] += 1
    elif t[: len(p)] == p:
        count["stopped early"] += 1
    elif subsequence(p, t):
        count["skipped frames"] += 1
    elif "[unknown]" in p[-1] and t[: len(p) - 1] == p[:-1]:
        count["astray last frame"] += 1
    elif "[unknown]" in p[-1] and subsequence(p[:-1], t):
        count["skipped, then astray"] += 1
    else:
        count["other"] += 1
        if first_other is None:
            j = next(k for k, (x, y) in enumerate(zip(p, t)) if x != y)
            first_other = "first other: sample %d (%s), line %d: perf %r, tephra %r" % (
                i + 1, p[0].strip(), j + 1, p[j].strip(), t[j].strip())
n = len(perf)
print("%d samples: %s" % (n, ", ".join("%s %d (%.1f%%)" % (k, v, 100.0 * v / max(n, 1)) for k, v in count.items())))
if first_other:
    print("  " + first_other)
    verdict("DIFFERS: %d samples (%.1f%%) of no known class" % (count["other"], 100.0 * count["other"] / max(n, 1)))
    sys.exit(1)
# the classes are perf's failures, named from perf's side in the table
verdict("no: " + ", ".join("perf %s %d (%.1f%%)" % (k, v, 100.0 * v / max(n, 1))
                          for k, v in count.items() if v and k != "identical"))
if count["identical"] < n:
    print("  where they differ, perf 6.1's DWARF unwinding gave up, went astray or skipped "
          "frames (docs/perf-dwarf.md); no other difference")
