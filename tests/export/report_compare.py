#!/usr/bin/env python3
"""report_compare.py PERF-REPORT-TEXT TEPHRA-JSON MODE [PERF-DATA]: checks `tephra report --json`
against `perf report --stdio -g none` text of the same recording.  MODE self: perf ran
with --no-children (one percentage per row); total: with --children (children and self
percentages).  Rows are matched by name (perf's "[.] " / "[k] " prefix and " (inlined)"
suffix dropped; dso names by their last path component).  Every row of either side
must be on the other with percentages equal within 0.011 (perf rounds to two decimals;
rows perf shows at 0.00% may be missing), except unresolved code: perf names it by
address, one row per address, tephra by its object ("[[vdso]]", "[libfoo.so]") or
"[unknown]" (README, frame names).  Those rows are compared as one bucket, by the sum of
their self percentages, which is the share of samples whose leaf is unresolved on both
sides (total percentages do not add up across rows).

With PERF-DATA, names of one function are one row.  A function with several ELF symbols
(glibc's getrlimit: __getrlimit, getrlimit64, __GI___getrlimit64...) has one name in perf
script and tephra, the DWARF one, but perf report names the sampled address by its own
pick among the ELF symbols, and in --children mode lists the DWARF name too, as an
"(inlined)" row over the same frames.  So names are grouped by (object, address) from
`nm` and `nm -D` of every object of the recording (report_objects.py) and its /usr/lib/debug/.build-id
file (binutils, not tephra, is the oracle here); in a group, self percentages add up and
the total is the largest name's (each covers the same frames; rows of one name add up).  GCC's clones are the
same case: perf report names the ELF symbol (get_common_indices.constprop.0), perf script
and tephra the function (get_common_indices), so clone suffixes are dropped.
Exit 1 with the differences."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_objects import objects  # noqa: E402

perf_text, tephra_json, mode = sys.argv[1:4]
perf_data = sys.argv[4] if len(sys.argv) > 4 else None


def alias_groups(data):
    """name -> a representative of the names at its (object, address)."""
    canon = {}
    for bid, path in objects(data):
        files = [path, "/usr/lib/debug/.build-id/%s/%s.debug" % (bid[:2], bid[2:])]
        at = {}
        for f in files:
            for flags in (["--defined-only"], ["-D", "--defined-only"]):
                if not os.path.isfile(f):
                    continue
                syms = subprocess.run(["nm"] + flags + [f], capture_output=True, text=True).stdout
                for s in syms.splitlines():
                    p = s.split()
                    if len(p) == 3 and p[1] in "tTwWiI":
                        names = at.setdefault(int(p[0], 16), set())
                        names.add(p[2])
                        names.add(re.sub(r"@.*", "", p[2]))
        for names in at.values():
            if len(names) > 1:
                rep = min(names)
                for n in names:
                    canon.setdefault(n, rep)
    return canon


doc = json.load(open(tephra_json))
by_function = perf_data and doc["key"] not in ("object", "comm")
canon = alias_groups(perf_data) if by_function else {}
clone = re.compile(r"(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$")


def canonical(name):
    """(the name of the group, whether NAME was renamed into it)"""
    if not by_function:
        return name, False
    base = clone.sub("", name)
    if base in canon:
        return canon[base], True
    return base, base != name


row = re.compile(r"^\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(?:\[(.)\]\s+)?(.*?)\s*$")


def add(rows, name, total, self):
    """Rows of one name (user and kernel, several objects, several of perf's inline
    entries) add up."""
    old = rows.get(name)
    if old:
        total = old[0] + total if total is not None else None
        self = old[1] + self
    rows[name] = (total, self)


def grouped(rows):
    """Names of one function (canonical()) are one row: self adds up, the total is the
    largest name's, since each name's rows cover the same frames."""
    out = {}
    for name, (total, self) in rows.items():
        group, _ = canonical(name)
        old = out.get(group)
        if old:
            total = max(old[0], total) if total is not None else None
            self = old[1] + self
        out[group] = (total, self)
    return out


perf_raw = {}
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
    add(perf_raw, name, total, self)
perf = grouped(perf_raw)

ours_raw = {}
ours_unresolved_self = 0.0
for r in doc["rows"]:
    name = r["name"]
    if doc["key"] == "object":
        name = name.rsplit("/", 1)[-1]
    if name == "[unknown]" or (doc["key"] != "object" and re.fullmatch(r"\[.+\]", name)):
        ours_unresolved_self += r["self_percent"]
        continue
    add(ours_raw, name, r["total_percent"], r["self_percent"])
ours = grouped(ours_raw)

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
