#!/usr/bin/env python3
"""Compares tephra's symbol lookups with perf script's callchain lines.

usage: compare_with_perf.py PERF_SCRIPT_OUTPUT BUILDID_LIST LOOKUP_BIN [--inline] [lookup options]

Every unique callchain line "ADDR SYM+0xOFF (DSO)" (or "ADDR [unknown] (DSO)") whose
DSO is a real object gives a query "DSO BUILD-ID ADDR" for the lookup driver; the
driver's answer must equal perf's text.  Prints a summary; exits 1 on any mismatch or
when there was nothing to compare.

With --inline (DWARF callchains, where perf 6.1 expands each address into its inline
chain): consecutive lines with one address, up to and including the first line not
marked "(inlined)", are one frame; the driver's --inline answer must list the same
names and offsets ("(DSO)" standing for the dso)."""
import re, subprocess, sys
from collections import Counter

script, bidlist, lookup = sys.argv[1:4]
opts = sys.argv[4:]
mode = "--lookup"
if "--inline" in opts:
    opts.remove("--inline")
    mode = "--inline"
bids = {}
for line in open(bidlist, errors="replace"):
    parts = line.split(None, 1)
    if len(parts) == 2:
        bids[parts[1].strip()] = parts[0]

line_re = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")

def frames(path):
    """(addr, dso, expected text) per frame of every callchain."""
    group = []
    def flush():
        if group:
            addr = group[0][0]
            real = [d for _, _, d in group if d != "inlined"]
            dso = real[0] if real else None
            yield addr, dso, group[:]
        group.clear()
    for line in open(path, errors="replace"):
        m = line_re.match(line.rstrip("\n"))
        if not m:
            yield from flush()
            continue
        addr, sym, dso = m.groups()
        if mode == "--lookup":
            yield addr, dso, [(addr, sym, dso)]
            continue
        if group and group[0][0] != addr:
            yield from flush()
        group.append((addr, sym, dso))
        if dso != "inlined":
            yield from flush()
    yield from flush()

def expected_text(group):
    if mode == "--lookup":
        return group[0][1]
    if len(group) == 1 and group[0][2] != "inlined":
        return group[0][1]
    return " | ".join(f"{sym} ({'inlined' if d == 'inlined' else 'DSO'})" for _, sym, d in group)

queries = {}
dso_of_inline_only = {}
for addr, dso, group in frames(script):
    if dso is None:
        continue   # an all-inlined frame: its dso is not printed; skip it
    if dso == "[unknown]":
        continue
    key = (dso, addr)
    want = expected_text(group)
    if key in queries and queries[key] != want:
        print(f"perf itself is inconsistent for {key}: {queries[key]} / {want}")
    queries[key] = want
if not queries:
    print("no callchain lines to compare")
    sys.exit(1)
keys = sorted(queries)
inp = "".join(f"{dso.replace(' ', '_')} {bids.get(dso, '-')} {addr}\n" for dso, addr in keys)
out = subprocess.run([lookup, mode] + opts, input=inp, capture_output=True,
                     text=True, check=True).stdout.splitlines()
bad = 0
per_dso = Counter()
for (dso, addr), got in zip(keys, out):
    want = queries[(dso, addr)]
    per_dso[dso] += 1
    if mode == "--inline" and got.endswith(" (DSO)") and " | " not in got:
        got = got[:-len(" (DSO)")]
    if got != want:
        bad += 1
        if bad <= 40:
            print(f"MISMATCH {dso} {addr}: perf '{want}' tephra '{got}'")
for dso, n in sorted(per_dso.items()):
    print(f"  {n:5d} unique addresses in {dso} (build-id {bids.get(dso, '-')})")
print(f"{len(keys) - bad}/{len(keys)} unique callchain lines agree")
sys.exit(1 if bad or len(out) != len(keys) else 0)
