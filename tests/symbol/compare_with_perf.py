#!/usr/bin/env python3
"""Compares tephra's symbol lookups with perf script's callchain lines.

usage: compare_with_perf.py PERF_SCRIPT_OUTPUT BUILDID_LIST LOOKUP_BIN [lookup options]

Every unique callchain line "ADDR SYM+0xOFF (DSO)" (or "ADDR [unknown] (DSO)") whose
DSO is a real object gives a query "DSO BUILD-ID ADDR" for the lookup driver; the
driver's answer must equal perf's text.  Prints a summary; exits 1 on any mismatch or
when there was nothing to compare."""
import re, subprocess, sys
from collections import Counter

script, bidlist, lookup = sys.argv[1:4]
opts = sys.argv[4:]
bids = {}
for line in open(bidlist, errors="replace"):
    parts = line.split(None, 1)
    if len(parts) == 2:
        bids[parts[1].strip()] = parts[0]

line_re = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")
queries = {}
for line in open(script, errors="replace"):
    m = line_re.match(line.rstrip("\n"))
    if not m:
        continue
    addr, sym, dso = m.groups()
    if dso == "[unknown]":
        continue
    key = (dso, addr)
    if key in queries and queries[key] != sym:
        print(f"perf itself is inconsistent for {key}: {queries[key]} / {sym}")
    queries[key] = sym
if not queries:
    print("no callchain lines to compare")
    sys.exit(1)
keys = sorted(queries)
inp = "".join(f"{dso.replace(' ', '_')} {bids.get(dso, '-')} {addr}\n" for dso, addr in keys)
out = subprocess.run([lookup, "--lookup"] + opts, input=inp, capture_output=True,
                     text=True, check=True).stdout.splitlines()
bad = 0
per_dso = Counter()
for (dso, addr), got in zip(keys, out):
    want = queries[(dso, addr)]
    per_dso[dso] += 1
    if got != want:
        bad += 1
        if bad <= 40:
            print(f"MISMATCH {dso} {addr}: perf '{want}' tephra '{got}'")
for dso, n in sorted(per_dso.items()):
    print(f"  {n:5d} unique addresses in {dso} (build-id {bids.get(dso, '-')})")
print(f"{len(keys) - bad}/{len(keys)} unique callchain lines agree")
sys.exit(1 if bad or len(out) != len(keys) else 0)
