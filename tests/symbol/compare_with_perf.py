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
    """(addr, dso, [(addr, sym, dso)...]) per frame.  In --inline mode a frame is the
    whole run of lines with one address (several frames when a function recurses at
    the same address: compared modulo repetition)."""
    group = []
    def flush():
        if group:
            real = [d for _, _, d in group if d != "inlined"]
            yield group[0][0], (real[0] if real else None), group[:]
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
    yield from flush()

def entries_of(group):
    return [f"{sym} ({'inlined' if d == 'inlined' else 'DSO'})" for _, sym, d in group]

queries = {}
for addr, dso, group in frames(script):
    if dso is None or dso == "[unknown]":
        continue   # all-inlined frames print no dso; unknown maps have no symbols
    key = (dso, addr)
    if mode == "--lookup":
        want = group[0][1]
        if key in queries and queries[key] != want:
            print(f"perf itself is inconsistent for {key}: {queries[key]} / {want}")
        queries[key] = want
    else:
        queries.setdefault(key, []).append(entries_of(group))
if not queries:
    print("no callchain lines to compare")
    sys.exit(1)
keys = sorted(queries)
inp = "".join(f"{dso.replace(' ', '_')} {bids.get(dso, '-')} {addr}\n" for dso, addr in keys)
out = subprocess.run([lookup, mode] + opts, input=inp, capture_output=True,
                     text=True, check=True).stdout.splitlines()
bad = 0
per_dso = Counter()

def inline_ok(got, groups):
    chain = [e if e.endswith((" (inlined)", " (DSO)")) else e + " (DSO)"
             for e in got.split(" | ")]
    for g in groups:
        n = len(g) // len(chain)
        if n == 0 or chain * n != g:
            return False
    return True

for (dso, addr), got in zip(keys, out):
    want = queries[(dso, addr)]
    per_dso[dso] += 1
    ok = got == want if mode == "--lookup" else inline_ok(got, want)
    if not ok:
        bad += 1
        if bad <= 40:
            print(f"MISMATCH {dso} {addr}: perf '{want}' tephra '{got}'")
for dso, n in sorted(per_dso.items()):
    print(f"  {n:5d} unique addresses in {dso} (build-id {bids.get(dso, '-')})")
print(f"{len(keys) - bad}/{len(keys)} unique callchain lines agree")
sys.exit(1 if bad or len(out) != len(keys) else 0)
