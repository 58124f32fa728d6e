#!/usr/bin/env python3
"""pprof_functions.py < RAW: checks `go tool pprof -raw` text of a profile written with
`tephra export -f pprof --granularity=functions`: every Location at address 0 with no
line numbers, no two Locations alike (mapping and function lines), and no two Samples
with the same locations and labels (a Sample is one folded line of one thread).
Prints "N samples, M locations" or the first problem (exit 1)."""
import re
import sys

lines = sys.stdin.read().split("\n")
section = None
samples, locs = [], {}
cur_loc = None
for line in lines:
    if line in ("Samples:", "Locations", "Mappings"):
        section = line
        continue
    if section == "Samples:":
        m = re.match(r"^\s+\d+\s+\d+:\s*([\d ]+)$", line)
        if m:
            samples.append([m.group(1).split(), []])
        elif samples and line.strip() and not line.startswith("samples/"):
            samples[-1][1].append(line.strip())
    elif section == "Locations":
        m = re.match(r"^\s+(\d+): (0x[0-9a-f]+) (M=\d+ )?(.*)$", line)
        if m:
            if int(m.group(2), 16):
                sys.exit("Location %s at address %s" % (m.group(1), m.group(2)))
            cur_loc = m.group(1)
            locs[cur_loc] = [m.group(3) or "", m.group(4)]
        elif cur_loc and line.strip():
            locs[cur_loc].append(line.strip())
for lid, text in locs.items():
    for entry in text[1:]:
        m = re.search(r":(\d+) s=\d+$", entry)
        if m and m.group(1) != "0":
            sys.exit("Location %s has a line number: %s" % (lid, entry))
seen = {}
for lid, text in locs.items():
    key = "\n".join(text)
    if key in seen:
        sys.exit("Locations %s and %s are alike: %s" % (seen[key], lid, key))
    seen[key] = lid
keys = set()
for ids, labels in samples:
    key = (tuple(ids), tuple(sorted(labels)))
    if key in keys:
        sys.exit("two Samples with locations %s and labels %s" % (" ".join(ids), labels))
    keys.add(key)
if not samples or not locs:
    sys.exit("no samples or no locations")
print("%d samples, %d locations" % (len(samples), len(locs)))
