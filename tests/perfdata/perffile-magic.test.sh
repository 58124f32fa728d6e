#!/usr/bin/env bash
# perf.data under the old magic "PERFFILE" with version 2's layout, as RHEL 6's perf
# wrote it: perf reads such a file when its attr size is one a perf of that time wrote
# (attrs of 64 to 104 bytes, each with its 16-byte id section), and a pipe stream under
# that magic too; tephra refused every PERFFILE file.  Oracle: perf script, on a real
# recording rewritten by tests/perfdata/perffile_v1_magic.py (magic, attrs cut to 104
# bytes), on the magic alone changed in a pipe stream, and on a file whose attr size
# (perf 6.1's 144) perf refuses under that magic.
set -u
. "$(dirname "$0")/lib.sh"
require_perf
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
command -v cc >/dev/null || { echo "cc is not installed"; exit 77; }
cd "$TEST_TMP" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cc -O1 -g -o p "$TOP/tests/perfdata/dlsym_loop.c" || exit 1
perf record -q -g -e cpu-clock -F 2000 -o v2.data ./p 500000 >/dev/null 2>&1 ||
	{ echo "perf record failed"; exit 1; }
perf record -q -g -e cpu-clock -F 2000 -o - ./p 500000 2>/dev/null >pipe2.data ||
	{ echo "perf record -o - failed"; exit 1; }
python3 "$TOP/tests/perfdata/perffile_v1_magic.py" v2.data v1.data >/dev/null || exit 1
cp v2.data v1-144.data && printf PERFFILE | dd of=v1-144.data conv=notrunc status=none
cp pipe2.data pipe1.data && printf PERFFILE | dd of=pipe1.data conv=notrunc status=none

perf script -i v1.data >perf.txt 2>/dev/null || fail "perf script refused the PERFFILE file"
[ "$(grep -c cpu-clock perf.txt)" -ge 10 ] || fail "perf script shows too few samples: nothing tested"
perf script -i - <pipe1.data >perf-pipe.txt 2>/dev/null || fail "perf script refused the PERFFILE stream"
[ "$(grep -c cpu-clock perf-pipe.txt)" -ge 10 ] || fail "perf script shows too few pipe samples"
perf script -i v1-144.data >/dev/null 2>&1 && fail "perf script read attr size 144 under PERFFILE: the refusal below has no oracle"
for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	"$bin" script -q v1.data >t.txt 2>t.err || fail "$bin script refused the PERFFILE file: $(head -n 1 t.err)"
	cmp -s perf.txt t.txt || { fail "$bin script differs from perf script:"; diff perf.txt t.txt | head -n 6; }
	"$bin" script -q - <pipe1.data >t-pipe.txt 2>t.err || fail "$bin script refused the PERFFILE stream: $(head -n 1 t.err)"
	cmp -s perf-pipe.txt t-pipe.txt || { fail "$bin script differs from perf script (pipe):"; diff perf-pipe.txt t-pipe.txt | head -n 6; }
	"$bin" script v1-144.data >/dev/null 2>t.err && fail "$bin script read attr size 144 under PERFFILE"
	grep -qx 'tephra script: v1-144.data: offset 0x0: perf.data version 1 (magic PERFFILE) with attr size 144, not a layout perf reads' t.err ||
		fail "$bin script: not the one error line: $(cat t.err)"
done
[ "$failures" -eq 0 ] && echo ok
exit $((failures > 0))
