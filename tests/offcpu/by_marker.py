#!/usr/bin/env python3
"""by_marker.py MARKERS [TID] < folded: the weights of folded stacks summed per marker:
a stack's innermost frame named in MARKERS (comma-separated), else "other".  With TID,
only the stacks of roots ending in "/TID" (tephra fold --tid).  Prints "marker weight"
lines, sorted (as oracle.py does)."""
import sys

markers = set(sys.argv[1].split(","))
tid = sys.argv[2] if len(sys.argv) > 2 else None
totals = {}
for line in sys.stdin:
    stack, weight = line.rstrip("\n").rsplit(" ", 1)
    frames = stack.split(";")
    if tid is not None and not frames[0].endswith("/" + tid):
        continue
    marker = next((f for f in reversed(frames) if f in markers), "other")
    totals[marker] = totals.get(marker, 0) + int(weight)
for k in sorted(totals):
    print(k, totals[k])
