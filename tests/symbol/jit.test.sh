#!/usr/bin/env bash
# JIT code described by /tmp/perf-PID.map (absolute addresses, names with spaces).
. "$TOP/tests/symbol/lib.sh"
need_perf
[ "$(uname -m)" = x86_64 ] || skip "the JIT workload is x86-64 machine code"
cd "$TEST_TMP"
gcc -O1 -g -fno-omit-frame-pointer -o jit "$PROGS/jit.c" || fail build
record jit.data ./jit 3000
pid=$(perf --buildid-dir "$BID" script -i jit.data -F pid 2>/dev/null | head -1 | tr -d ' ')
trap 'rm -f "/tmp/perf-$pid.map"' EXIT
compare jit.data
expect_line jit.data "(jit_loop_one|jit_loop_stale|jit_region)\+0x[0-9a-f]+ \(/tmp/perf-[0-9]+\.map\)"
expect_line jit.data "(LazyCompile:~two script\.js:12|jit_region)\+0x[0-9a-f]+ \(/tmp/perf-[0-9]+\.map\)"
