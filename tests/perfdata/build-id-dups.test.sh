#!/usr/bin/env bash
# `tephra stat --build-ids` equals `perf buildid-list -i FILE` (lines and order) on a file
# whose BUILD_ID section names one path twice.  perf record keeps one object per (path,
# device, inode): a system-wide recording that hits a path through two files (a chroot's
# libc beside the host's) writes two entries, which made stat-vs-perf fail now and then
# in a chroot.  Here the condition is built on purpose: a program is run, replaced by a
# copy (a new inode at the same path) and run again, recorded with --buildid-all so that
# every mapped object gets its entry whether or not a sample hit it.  Then the first
# entry's id is overwritten, as when the two files differ: perf prints the path once,
# with the id of its last entry.
set -u
. "$(dirname "$0")/lib.sh"
require_perf
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
cd "$TEST_TMP" || exit 1
BIN=${TEPHRA_ASAN:-}
[ -x "$BIN" ] || BIN=$TEPHRA

cp /bin/true prog
perf record -q --buildid-all -o dup.data -- sh -c './prog; cp prog prog.new; mv prog.new prog; ./prog' \
	>/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
# perf's own account of the section (its debug line per entry read)
n=$(perf buildid-list -v -i dup.data 2>&1 | grep -c "^build id event received for $PWD/prog: ")
[ "$n" = 2 ] || { echo "the recording names $PWD/prog $n times, not twice: the case is not built"; exit 1; }

fail=0
check() { # FILE
	perf buildid-list -i "$1" 2>/dev/null | grep -E '^[0-9a-f]+ ' > "$1.perf"
	"$BIN" stat --build-ids "$1" > "$1.tephra" || { echo "tephra stat --build-ids $1 failed"; fail=1; return; }
	if cmp -s "$1.perf" "$1.tephra"; then
		echo "$1: $(wc -l < "$1.perf") lines match"
	else
		echo "$1 differs (- perf, + tephra):"; diff "$1.perf" "$1.tephra"; fail=1
	fi
}
check dup.data

# The first prog entry gets another id: HEADER_BUILD_ID is feature bit 2; its section is
# found in the table after the data section, one (offset, size) per feature bit set.
python3 - dup.data conflict.data "$PWD/prog" <<'EOF' || { echo "cannot patch the BUILD_ID section"; exit 1; }
import struct, sys
src, dst, path = sys.argv[1], sys.argv[2], sys.argv[3].encode()
d = bytearray(open(src, 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', d, 40)
flags = struct.unpack_from('<4Q', d, 72)
bits = [b for b in range(256) if flags[b // 64] >> (b % 64) & 1]
off, size = struct.unpack_from('<QQ', d, data_off + data_size + 16 * bits.index(2))
at = off
while at < off + size:
    rec_size = struct.unpack_from('<H', d, at + 6)[0]
    if bytes(d[at + 36:at + rec_size]).split(b'\0')[0] == path:
        d[at + 12:at + 32] = bytes(range(0xa0, 0xb4))
        break
    at += rec_size
else:
    sys.exit(1)
open(dst, 'wb').write(d)
EOF
perf buildid-list -v -i conflict.data 2>&1 | grep -q "^build id event received for $PWD/prog: a0a1a2a3" ||
	{ echo "perf does not read the patched id"; exit 1; }
check conflict.data
grep -q " $PWD/prog$" conflict.data.perf || { echo "perf lists no $PWD/prog"; fail=1; }
exit $fail
