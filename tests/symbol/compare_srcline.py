#!/usr/bin/env python3
"""Compares dso_frame_srcline (what tephra script prints for -F srcline) with perf
script -F ip,dso,srcline of a -g recording.

usage: compare_srcline.py PERF_SCRIPT_OUTPUT BUILDID_LIST LOOKUP_BIN [lookup options]

perf 6.1 prints binutils addr2line's answer, which tephra script reproduces
(symbol_lookup --frame-srcline), misreadings of DWARF 5 included: rows that keep the
line program's initial file (entry 1) are printed as the unit's primary file (entry 0),
e.g. ld.so's handle_amd as dl-get-cpu-features.c:327 where DWARF says dl-cacheinfo.h.
dso_srcline (symbol_lookup --srcline, `tephra fold --srcline`) gives DWARF's own answer
and is compared with llvm-addr2line in tests/symbol/srcline_dwarf5.test.sh.

perf prints the sample's first callchain address (map-relative) and dso, then its
source line as "file:line" (file's last component).  Lines perf could not resolve
("dso[addr]" forms) are not compared.  Exits 1 on a mismatch or nothing compared."""
import re, subprocess, sys

script, bidlist, lookup = sys.argv[1:4]
opts = sys.argv[4:]
bids = {}
for line in open(bidlist, errors="replace"):
    parts = line.split(None, 1)
    if len(parts) == 2:
        bids[parts[1].strip()] = parts[0]
frame_re = re.compile(r"^\s+([0-9a-f]+) \((.*)\)$")
src_re = re.compile(r"^  ([^\[\]\s]+:\d+)$")
queries = {}
pending = None
for line in open(script, errors="replace"):
    line = line.rstrip("\n")
    m = frame_re.match(line)
    if m:
        pending = (m.group(2), m.group(1))
        continue
    m = src_re.match(line)
    if m and pending and pending[0] not in ("[unknown]",) and not pending[0].startswith("["):
        queries[pending] = m.group(1)
    pending = None
if not queries:
    print("no source lines to compare")
    sys.exit(1)
keys = sorted(queries)
inp = "".join(f"{dso} {bids.get(dso, '-')} {addr}\n" for dso, addr in keys)
out = subprocess.run([lookup, "--frame-srcline"] + opts, input=inp, capture_output=True,
                     text=True, check=True).stdout.splitlines()
bad = 0
for key, got in zip(keys, out):
    if got != queries[key]:
        bad += 1
        print(f"MISMATCH {key}: perf '{queries[key]}' tephra '{got}'")
print(f"{len(keys) - bad}/{len(keys)} unique source lines agree")
sys.exit(1 if bad or len(out) != len(keys) else 0)
