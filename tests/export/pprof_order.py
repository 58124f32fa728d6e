#!/usr/bin/env python3
"""Reads `go tool pprof -raw` text on stdin and checks the order of its samples: each
thread's (labels thread, pid, tid) samples together, and within a thread sorted by their locations root
first (what lets deflate find the callers that neighbours share).  Prints
"ok N samples, T threads", or the first sample out of order, and exits 1."""
import re
import sys

samples = []  # (labels, location ids root first)
in_samples = False
for line in sys.stdin:
    if line.startswith("Samples:"):
        in_samples = True
        continue
    if in_samples and re.match(r"^\S", line) and not line.startswith("samples/"):
        break  # Locations:, Mappings:
    m = re.match(r"^\s+(?:\d+\s+)*\d+: ([\d ]+)$", line.rstrip("\n") + " ")
    if in_samples and m:
        ids = [int(x) for x in m.group(1).split()]
        samples.append(["", ids[::-1]])
        continue
    if in_samples and samples and re.match(r"^\s+\w+:\[", line):
        samples[-1][0] += line.strip() + " "

# pprof renumbers locations as it reads (by first use), so the order is checked as what
# sorting makes whatever the numbers: the samples that share a root-first prefix of
# locations (callers) are neighbours; once left, a prefix never comes back
done, closed, prev = set(), set(), None
for i, (thread, ids) in enumerate(samples):
    if prev is not None and thread != prev[0]:
        if thread in done:
            print("sample %d: %s: its samples are not together" % (i, thread))
            sys.exit(1)
        closed = set()
    elif prev is not None:
        common = 0
        while common < min(len(ids), len(prev[1])) and ids[common] == prev[1][common]:
            common += 1
        for k in range(common + 1, len(prev[1]) + 1):
            closed.add(tuple(prev[1][:k]))
        for k in range(common + 1, len(ids) + 1):
            if tuple(ids[:k]) in closed:
                print("sample %d (%s): callers %s met again after other samples" % (i, thread, ids[:k]))
                sys.exit(1)
    done.add(thread)
    prev = (thread, ids)
if not samples:
    print("no samples read")
    sys.exit(1)
print("ok %d samples, %d threads" % (len(samples), len(done)))
