#!/usr/bin/env python3
"""report_compare.py PERF-REPORT-TEXT TEPHRA-JSON MODE: checks `tephra report --json`
against `perf report --stdio -g none` text of the same recording.  MODE self: perf ran
with --no-children (one percentage per row); total: with --children (children and self
percentages).  Rows are matched by name (perf's "[.] " / "[k] " prefix and " (inlined)"
suffix dropped; dso names by their last path component).  Every row of either side
must be on the other with percentages equal within 0.011 (perf rounds to two decimals;
rows perf shows at 0.00% may be missing), except unresolved code: perf names it by
address, one row per address, tephra by its object ("[[vdso]]", "[libfoo.so]") or
"[unknown]" (README, frame names).  Those rows are compared as one bucket, by the sum of
their self percentages, which is the share of samples whose leaf is unresolved on both
sides (total percentages do not add up across rows).  Exit 1 with the differences."""
import json
import re
import sys

perf_text, tephra_json, mode = sys.argv[1:4]
row = re.compile(r"^\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(?:\[(.)\]\s+)?(.*?)\s*$")
perf = {}
perf_unresolved_self, perf_unresolved_rows = 0.0, 0
for line in open(perf_text, errors="replace"):
    if line.startswith("#") or not line.strip():
        continue
    m = row.match(line)
    if not m:
        continue
    name = m.group(4)
    if name.endswith(" (inlined)"):
        name = name[: -len(" (inlined)")]
    first = float(m.group(1))
    second = float(m.group(2)) if m.group(2) else None
    total, self = (first, second) if mode == "total" else (None, first)
    if re.fullmatch(r"(0x)?[0-9a-f]{8,}|0x[0-9a-f]+", name):
        perf_unresolved_self += self
        perf_unresolved_rows += 1
        continue
    old = perf.get(name)
    if old:  # one name in several rows (user and kernel, several objects): summed
        total = (old[0] or 0) + (total or 0) if total is not None else None
        self = old[1] + self
    perf[name] = (total, self)

doc = json.load(open(tephra_json))
ours = {}
ours_unresolved_self = 0.0
for r in doc["rows"]:
    name = r["name"]
    if doc["key"] == "object":
        name = name.rsplit("/", 1)[-1]
    if name == "[unknown]" or (doc["key"] != "object" and re.fullmatch(r"\[.+\]", name)):
        ours_unresolved_self += r["self_percent"]
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
# each perf row is rounded to two decimals
if abs(perf_unresolved_self - ours_unresolved_self) > 0.006 + 0.005 * perf_unresolved_rows:
    bad.append("unresolved code: perf self %.2f%% in %d address rows, tephra self %.4f%%"
               % (perf_unresolved_self, perf_unresolved_rows, ours_unresolved_self))
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
print("%d rows agree; unresolved: perf self %.2f%% in %d address rows, tephra %.4f%%"
      % (len(perf), perf_unresolved_self, perf_unresolved_rows, ours_unresolved_self))
