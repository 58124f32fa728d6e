#!/usr/bin/env python3
"""tracing_data.py PERF.DATA OUT: writes the TRACING_DATA feature section (feature bit 1)
of a file-mode perf.data to OUT (a seed of fuzz_trace_format)."""
import struct, sys

d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'PERFILE2'
data_off, data_size = struct.unpack_from('<QQ', d, 40)
features = int.from_bytes(d[72:104], 'little')
sec = data_off + data_size
for bit in range(256):
    if features >> bit & 1:
        off, size = struct.unpack_from('<QQ', d, sec)
        if bit == 1:
            open(sys.argv[2], 'wb').write(d[off:off + size])
            break
        sec += 16
else:
    sys.exit('no TRACING_DATA section')
