#!/usr/bin/env python3
"""pprof_tables.py FILE.pb.gz: prints the gzip -6 size (bytes) of the profile without its
samples (field 2 of profile.proto's Profile): the mapping, location, function and string
tables and the rest, what bench/export.sh adds to gzip of the folded text as the budget of
the pprof file (docs/export.md, "Speed and memory").  Reads the protocol buffer's
top-level fields only."""
import gzip
import sys
import zlib


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return v, i


raw = gzip.open(sys.argv[1]).read()
i, tables = 0, bytearray()
while i < len(raw):
    start = i
    key, i = varint(raw, i)
    field, wire = key >> 3, key & 7
    if wire == 0:
        _, i = varint(raw, i)
    elif wire == 2:
        n, i = varint(raw, i)
        i += n
    else:
        sys.exit("pprof_tables: wire type %d at byte %d" % (wire, start))
    if field != 2:
        tables += raw[start:i]
c = zlib.compressobj(6, zlib.DEFLATED, 31)
print(len(c.compress(bytes(tables)) + c.flush()))
