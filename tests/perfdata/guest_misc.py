#!/usr/bin/env python3
"""guest_misc.py IN OUT N: rewrites a perf.data file (PERFILE2, not pipe mode, not
compressed) so that every Nth sample record (the 1st, the N+1th, ...) reads as taken in
a guest, as `perf kvm record` marks them: the cpumode bits of its header's misc become
GUEST_KERNEL (4) for a kernel sample, GUEST_USER (5) for a user one.  Nothing else
changes (sizes, callchains).  Prints how many samples it marked."""
import struct, sys
src, dst, every = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, 'rb').read())
assert b[:8] == b'PERFILE2'
data_off, data_size = struct.unpack_from('<QQ', b, 40)
p, end, i, n = data_off, data_off + data_size, 0, 0
while p < end:
    typ, misc, size = struct.unpack_from('<IHH', b, p)
    assert typ != 81 and typ != 83, "compressed recording"
    if typ == 9:
        mode = misc & 7
        if i % every == 0 and mode in (1, 2):
            struct.pack_into('<H', b, p + 4, (misc & ~7) | (4 if mode == 1 else 5))
            n += 1
        i += 1
    p += size
open(dst, 'wb').write(b)
print(n)
