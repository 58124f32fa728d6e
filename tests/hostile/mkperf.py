#!/usr/bin/env python3
"""mkperf.py - crafted perf.data files for tests/hostile (docs/hostile.md), built byte
by byte from the perf.data layout (tools/perf/Documentation/perf.data-file-format.txt).

  mkperf.py attrs N OUT      a file-mode perf.data with N cpu-clock attrs, one id each
                             (ids in decreasing order), and three samples, of the first,
                             middle and last attr
  mkperf.py bomb MIB OUT     a perf.data whose zstd data (one frame cut into COMPRESSED
                             records) inflates to MIB MiB of samples (needs the zstd
                             program), where perf's mmap size is 516 KiB
  mkperf.py evname N OUT     N samples of an event whose name holds newlines and
                             callgrind lines ("fl=/etc/passwd", a cost line)
  mkperf.py rounds N OUT     N COMPRESSED records of 512 KiB each, no FINISHED_ROUND
  mkperf.py jit PID OUT      process PID sampled once in anonymous executable memory,
                             whose symbols perf reads from /tmp/perf-PID.map
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
RECORD_MMAP, RECORD_SAMPLE, RECORD_COMM = 1, 9, 3
RECORD_HEADER_ATTR, RECORD_FINISHED_ROUND, RECORD_COMPRESSED = 64, 68, 81
FEAT_EVENT_DESC, FEAT_COMPRESSED = 12, 27


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


def mmap(pid, start, length, name, time=1):
    n = name.encode() + b"\0"
    n += bytes(-len(n) % 8)
    body = struct.pack("<IIQQQ", pid, pid, start, length, 0) + n
    body += struct.pack("<IIQQ", pid, pid, time, 0)
    return struct.pack("<IHH", RECORD_MMAP, 2, 8 + len(body)) + body


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
    if features:  # one feature: its section table entry, then the section
        at = data_off + len(data) + 16
        features = struct.pack("<QQ", at, len(features)) + features
    return body + data + features


def cmd_attrs(n, out):
    pairs = [(attr(), [n - i + 1000]) for i in range(n)]
    data = comm(1234, "attrs")
    for k, i in enumerate((0, n // 2, n - 1)):
        data += sample(pairs[i][1][0], time=2000 + k)
    data += struct.pack("<IHH", RECORD_FINISHED_ROUND, 0, 8)
    open(out, "wb").write(file_mode(pairs, data))


def cmd_jit(pid, out):
    data = comm(pid, "jit") + mmap(pid, 0x7f0000000000, 0x10000, "//anon", time=2)
    data += sample(7, ip=0x7f0000000100, pid=pid, time=3000)
    data += struct.pack("<IHH", RECORD_FINISHED_ROUND, 0, 8)
    open(out, "wb").write(file_mode([(attr(), [7])], data))


def cmd_evname(n, out):
    """N samples of one event whose name (EVENT_DESC) holds newlines and callgrind
    lines: what callgrind_annotate would take for a file's name and costs."""
    name = b"cpu-clock\nfl=/etc/passwd\nfn=forged\n1 99999999\0"
    name += bytes(-len(name) % 8)
    desc = struct.pack("<II", 1, ATTR_SIZE) + attr() + struct.pack("<I", 1)
    desc += struct.pack("<I", len(name)) + name + struct.pack("<Q", 7)
    data = comm(1234, "ev")
    for i in range(n):
        data += sample(7, ip=0x401000 + 16 * (i % 4), time=2000 + i)
    data += struct.pack("<IHH", RECORD_FINISHED_ROUND, 0, 8)
    open(out, "wb").write(file_mode([(attr(), [7])], data, desc, 1 << FEAT_EVENT_DESC))


def cmd_rounds(n, out):
    """N COMPRESSED records, each a zstd frame of 512 KiB of samples (under the mmap
    size), and no FINISHED_ROUND: every record waits in the queue."""
    one = sample(7, time=5000)
    proc = subprocess.run(["zstd", "-q", "-19", "-c", "-"],
                          input=one * (512 * 1024 // len(one)), stdout=subprocess.PIPE,
                          check=True)
    z = proc.stdout   # unpadded, as perf 6.1 writes COMPRESSED: zeros would be a frame
    rec = struct.pack("<IHH", RECORD_COMPRESSED, 0, 8 + len(z)) + z
    data = comm(1234, "rounds") + rec * n
    feat = struct.pack("<IIIII", 1, 1, 1, 0, 528384)
    open(out, "wb").write(file_mode([(attr(), [7])], data, feat, 1 << FEAT_COMPRESSED))


def cmd_bomb(mib, out):
    one = sample(7, time=5000)
    count = mib * 1024 * 1024 // len(one)
    # zstd on a stream of identical records: a few KB of it inflate to a MiB
    proc = subprocess.run(["zstd", "-q", "-19", "-c", "-"], input=one * count,
                          stdout=subprocess.PIPE, check=True)
    z = proc.stdout
    z += bytes(-len(z) % 8)
    recs = []
    while z:  # COMPRESSED records hold under 64 KiB each: one zstd frame, cut up
        part, z = z[:65528 - 8], z[65528 - 8:]
        recs.append(struct.pack("<IHH", RECORD_COMPRESSED, 0, 8 + len(part)) + part)
    data = comm(1234, "bomb") + b"".join(recs)
    # the COMPRESSED feature: version, type (1: zstd), level, ratio, mmap_len (perf's
    # default 528384: what one record may inflate to)
    feat = struct.pack("<IIIII", 1, 1, 1, 0, 528384)
    open(out, "wb").write(file_mode([(attr(), [7])], data, feat, 1 << FEAT_COMPRESSED))


if __name__ == "__main__":
    cmds = {"attrs": cmd_attrs, "bomb": cmd_bomb, "jit": cmd_jit, "evname": cmd_evname,
            "rounds": cmd_rounds}
    if len(sys.argv) != 4 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](int(sys.argv[2]), sys.argv[3])
