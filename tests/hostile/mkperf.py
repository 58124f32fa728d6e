#!/usr/bin/env python3
"""mkperf.py - crafted perf.data files for tests/hostile (docs/hostile.md), built byte
by byte from the perf.data layout (tools/perf/Documentation/perf.data-file-format.txt).

  mkperf.py attrs N OUT      a file-mode perf.data with N cpu-clock attrs, one id each
                             (ids in decreasing order), and three samples, of the first,
                             middle and last attr
  mkperf.py bomb MIB OUT     a pipe-mode perf.data whose one COMPRESSED record inflates
                             to MIB MiB of samples (needs the zstd program)
"""
import struct
import subprocess
import sys

PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME = 1, 2, 4
PERF_SAMPLE_ID, PERF_SAMPLE_PERIOD = 64, 256
SAMPLE_TYPE = (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
               PERF_SAMPLE_PERIOD)
ATTR_SIZE = 112                # perf_event_attr VER5
FLAG_SAMPLE_ID_ALL = 1 << 18
RECORD_SAMPLE, RECORD_COMM = 9, 3
RECORD_HEADER_ATTR, RECORD_FINISHED_ROUND, RECORD_COMPRESSED = 64, 68, 81
FEAT_COMPRESSED = 27


def attr(sample_type=SAMPLE_TYPE):
    """A cpu-clock perf_event_attr (type 1 = software, config 0 = cpu-clock)."""
    a = struct.pack("<IIQQQQQII", 1, ATTR_SIZE, 0, 4000, sample_type, 0,
                    1 | FLAG_SAMPLE_ID_ALL | (1 << 10), 0, 0)  # disabled, freq
    return a + bytes(ATTR_SIZE - len(a))


def sample(sid, ip=0x401000, pid=1234, time=1000, period=1):
    body = struct.pack("<QIIQQQ", ip, pid, pid, time, sid, period)
    return struct.pack("<IHH", RECORD_SAMPLE, 2, 8 + len(body)) + body  # misc: user


def comm(pid, name, time=1):
    n = name.encode() + b"\0"
    n += bytes(-len(n) % 8)
    # sample_id_all trailer: tid, time, id
    body = struct.pack("<II", pid, pid) + n + struct.pack("<IIQQ", pid, pid, time, 0)
    return struct.pack("<IHH", RECORD_COMM, 0, 8 + len(body)) + body


def file_mode(attrs_with_ids, data, features=b"", feature_bits=0):
    """attrs_with_ids: [(attr bytes, [ids])]; FEATURES: the feature section table and
    sections (offsets filled by the caller's layout below)."""
    hdr_size = 104
    entry = ATTR_SIZE + 16
    attrs_off = hdr_size
    ids_off = attrs_off + entry * len(attrs_with_ids)
    table, blob, at = [], [], 0
    for a, ids in attrs_with_ids:
        table.append(a + struct.pack("<QQ", ids_off + at, 8 * len(ids)))
        blob.append(b"".join(struct.pack("<Q", i) for i in ids))
        at += 8 * len(ids)
    table, ids_blob = b"".join(table), b"".join(blob)
    data_off = ids_off + len(ids_blob)
    data_off += -data_off % 8
    head = b"PERFILE2" + struct.pack("<QQQQQQQQ", hdr_size, entry, attrs_off, len(table),
                                     data_off, len(data), 0, 0)
    head += struct.pack("<QQQQ", feature_bits, 0, 0, 0)
    body = head + table + ids_blob
    body += bytes(data_off - len(body))
    return body + data + features


def cmd_attrs(n, out):
    pairs = [(attr(), [n - i + 1000]) for i in range(n)]
    data = comm(1234, "attrs")
    for k, i in enumerate((0, n // 2, n - 1)):
        data += sample(pairs[i][1][0], time=2000 + k)
    data += struct.pack("<IHH", RECORD_FINISHED_ROUND, 0, 8)
    open(out, "wb").write(file_mode(pairs, data))


def cmd_bomb(mib, out):
    one = sample(7, time=5000)
    count = mib * 1024 * 1024 // len(one)
    # zstd on a stream of identical records: the whole inflates from a few KB per MiB
    proc = subprocess.run(["zstd", "-q", "-19", "-c", "-"], input=one * count,
                          stdout=subprocess.PIPE, check=True)
    z = proc.stdout
    z += bytes(-len(z) % 8)
    # pipe mode: header, ATTR record (attr + its id), COMM, COMPRESSED
    pipe = b"PERFILE2" + struct.pack("<Q", 16)
    a = attr()
    pipe += struct.pack("<IHH", RECORD_HEADER_ATTR, 0, 8 + len(a) + 8) + a + struct.pack("<Q", 7)
    pipe += comm(1234, "bomb")
    size = 8 + len(z)
    if size >= 1 << 16:
        sys.exit("mkperf.py: the compressed data does not fit one record: use fewer MiB")
    pipe += struct.pack("<IHH", RECORD_COMPRESSED, 0, size) + z
    open(out, "wb").write(pipe)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("attrs", "bomb"):
        sys.exit(__doc__)
    {"attrs": cmd_attrs, "bomb": cmd_bomb}[sys.argv[1]](int(sys.argv[2]), sys.argv[3])
