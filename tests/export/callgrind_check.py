#!/usr/bin/env python3
"""callgrind_check.py FOLDED CALLGRIND ANNOTATE-TEXT: checks a callgrind file tephra
wrote against the folded stacks of the same recording (tephra fold's, `_[i]` marks
dropped) and what callgrind_annotate --inclusive=yes printed for it:
 - PROGRAM TOTALS is the folded total;
 - per function (callgrind_annotate's "file:function [object]" rows, summed by
   function name) the inclusive cost is the weight of the folded stacks holding that
   name, each stack counted once;
 - every call arc in the file (fn -> cfn) is a caller -> callee pair of adjacent
   frames of some folded stack (no invented arcs).
Exit 1 with the differences."""
import re
import sys

folded, cg_path, annotate = sys.argv[1:4]
total, incl, pairs = 0, {}, set()
for line in open(folded, errors="replace"):
    line = line.rstrip("\n")
    stack, _, w = line.rpartition(" ")
    w = int(w)
    frames = [f[:-4] if f.endswith("_[i]") else f for f in stack.split(";")]
    total += w
    for f in set(frames):
        incl[f] = incl.get(f, 0) + w
    for a, b in zip(frames, frames[1:]):
        pairs.add((a, b))

bad = []
text = open(annotate, errors="replace").read()
m = re.search(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text, re.M)
if not m or int(m.group(1).replace(",", "")) != total:
    bad.append("PROGRAM TOTALS %s, folded total %d" % (m.group(1) if m else None, total))
row = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+([^:]*):(.*) \[(.*)\]$")
got = {}
for line in text.splitlines():
    m = row.match(line)
    if m:
        name = m.group(3)
        got[name] = got.get(name, 0) + int(m.group(1).replace(",", ""))
for name in sorted(set(incl) | set(got)):
    if incl.get(name) != got.get(name):
        bad.append("%s: folded inclusive %s, callgrind_annotate %s" % (name, incl.get(name), got.get(name)))

# the arcs, names decompressed ("(id) name" defines, "(id)" refers)
names = {"fn": {}}
def name_of(value):
    m = re.match(r"^\((\d+)\)(?: (.*))?$", value)
    if not m:
        return value
    if m.group(2) is not None:
        names["fn"][m.group(1)] = m.group(2)
    return names["fn"].get(m.group(1))
fn = None
arcs = 0
for line in open(cg_path, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("fn="):
        fn = name_of(line[3:])
    elif line.startswith("cfn="):
        cfn = name_of(line[4:])
        arcs += 1
        if (fn, cfn) not in pairs:
            bad.append("arc %s -> %s is on no folded stack" % (fn, cfn))
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
print("%d functions, %d arcs agree" % (len(incl), arcs))
