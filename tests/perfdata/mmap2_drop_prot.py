#!/usr/bin/env python3
"""mmap2_drop_prot.py IN OUT: rewrites a perf.data file (PERFILE2, not pipe mode) as a
kernel before 3.16 wrote it (RHEL and CentOS 7's 3.10): every MMAP2 record of the inode
form loses its prot and flags fields (8 bytes after ino_generation), its size shrinks by
8, the data section's size with it, and the feature sections after the data move back.
Prints how many records it rewrote."""
import struct, sys
src, dst = sys.argv[1:3]
b = bytearray(open(src, 'rb').read())
magic, hsize, attr_size = struct.unpack_from('<8sQQ', b, 0)
assert magic == b'PERFILE2'
data_off, data_size = struct.unpack_from('<QQ', b, 40)
feat_bits = b[72:104]
nfeat = sum(bin(x).count('1') for x in feat_bits)
out = bytearray()
p, end, n = data_off, data_off + data_size, 0
while p < end:
    typ, misc, size = struct.unpack_from('<IHH', b, p)
    rec = b[p:p + size]
    if typ == 10 and not (misc & 0x4000):
        rec = rec[:64] + rec[72:]
        struct.pack_into('<H', rec, 6, size - 8)
        n += 1
    out += rec
    p += size
shrink = data_size - len(out)
idx = bytearray(b[end:end + 16 * nfeat])
for i in range(nfeat):
    o, s = struct.unpack_from('<QQ', idx, 16 * i)
    struct.pack_into('<QQ', idx, 16 * i, o - shrink, s)
res = b[:data_off] + out + idx + b[end + 16 * nfeat:]
struct.pack_into('<QQ', res, 40, data_off, len(out))
open(dst, 'wb').write(res)
print(n, "MMAP2 records rewritten")
