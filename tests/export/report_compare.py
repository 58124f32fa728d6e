#!/usr/bin/env python3
"""report_compare.py PERF-REPORT-TEXT TEPHRA-JSON MODE: checks `tephra report --json`
against `perf report --stdio -g none` text of the same recording.  MODE self: perf ran
with --no-children (one percentage per row); total: with --children (children and self
percentages).  Rows are matched by name (perf's "[.] " / "[k] " prefix and " (inlined)"
suffix dropped; dso names by their last path component); perf's rows named by an
address (unknown symbols) and tephra's "[unknown]" are left out.  Every other row of
either side must be on the other with percentages equal within 0.011 (perf rounds to
two decimals; rows perf shows at 0.00% may be missing).  Exit 1 with the differences."""
import json
import re
import sys

perf_text, tephra_json, mode = sys.argv[1:4]
row = re.compile(r"^\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(?:\[(.)\]\s+)?(.*?)\s*$")
perf = {}
for line in open(perf_text, errors="replace"):
    if line.startswith("#") or not line.strip():
        continue
    m = row.match(line)
    if not m:
        continue
    name = m.group(4)
    if name.endswith(" (inlined)"):
        name = name[: -len(" (inlined)")]
    if re.fullmatch(r"(0x)?[0-9a-f]{8,}|0x[0-9a-f]+", name):
        continue
    first = float(m.group(1))
    second = float(m.group(2)) if m.group(2) else None
    total, self = (first, second) if mode == "total" else (None, first)
    old = perf.get(name)
    if old:  # one name in several rows (user and kernel, several objects): summed
        total = (old[0] or 0) + (total or 0) if total is not None else None
        self = old[1] + self
    perf[name] = (total, self)

doc = json.load(open(tephra_json))
ours = {}
for r in doc["rows"]:
    name = r["name"]
    if doc["key"] == "object":
        name = name.rsplit("/", 1)[-1]
    if name == "[unknown]":
        continue
    old = ours.get(name, (0.0, 0.0))
    ours[name] = (old[0] + r["total_percent"], old[1] + r["self_percent"])

bad = []
for name, (total, self) in sorted(perf.items()):
    mine = ours.get(name)
    if mine is None:
        if self >= 0.01 or (total or 0) >= 0.01:
            bad.append("%s: perf %s, tephra has no row" % (name, (total, self)))
        continue
    if abs(mine[1] - self) > 0.011 or (total is not None and abs(mine[0] - total) > 0.011):
        bad.append("%s: perf total %s self %.2f, tephra total %.4f self %.4f" % (name, total, self, mine[0], mine[1]))
for name, (total, self) in sorted(ours.items()):
    if name not in perf and (self >= 0.005 or (mode == "total" and total >= 0.005)):
        bad.append("%s: tephra total %.4f self %.4f, perf has no row" % (name, total, self))
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
print("%d rows agree" % len(perf))
