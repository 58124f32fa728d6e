#!/usr/bin/env python3
"""perffile_v1_magic.py IN OUT [ATTR_BYTES]: rewrites a perf.data file (PERFILE2, not
pipe mode) as RHEL 6's perf wrote it: the old magic "PERFFILE" with version 2's header,
and perf_event_attrs of ATTR_BYTES (default 104, PERF_ATTR_SIZE_VER4: the largest a perf
of that time knew).  Each attr is cut to that size (its own size field too; the fields
cut off must be zero, or the file would mean something else) and followed by its id
section; the attrs are rewritten in place (the section shrinks, the bytes after it are
left unreferenced).  Prints the attr size written."""
import struct, sys
src, dst = sys.argv[1:3]
new_attr = int(sys.argv[3]) if len(sys.argv) > 3 else 104
b = bytearray(open(src, 'rb').read())
magic, hsize, attr_size = struct.unpack_from('<8sQQ', b, 0)
assert magic == b'PERFILE2' and hsize == 104
attrs_off, attrs_size = struct.unpack_from('<QQ', b, 24)
old_attr = attr_size - 16
n = attrs_size // attr_size
entries = []
for i in range(n):
    e = b[attrs_off + i * attr_size: attrs_off + (i + 1) * attr_size]
    attr, ids = e[:old_attr], e[old_attr:]
    assert not any(attr[new_attr:]), "attr fields past %d bytes are set" % new_attr
    attr = bytearray(attr[:new_attr])
    struct.pack_into('<I', attr, 4, new_attr)
    entries.append(attr + ids)
out = b''.join(entries)
b[attrs_off:attrs_off + len(out)] = out
b[0:8] = b'PERFFILE'
struct.pack_into('<QQQ', b, 16, new_attr + 16, attrs_off, len(out))
open(dst, 'wb').write(b)
print(new_attr + 16)
