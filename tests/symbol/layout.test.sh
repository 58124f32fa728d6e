#!/usr/bin/env bash
# Odd layouts: a non-PIE executable linked at 0x10000000 with a hot function in its
# own section at 0x20000800 (its own PT_LOAD, whose vaddr - offset differs from
# .text's): symbols must land in the file-offset space segment by segment.
. "$TOP/tests/symbol/lib.sh"
need_perf
cd "$TEST_TMP"
gcc -O1 -g -fno-omit-frame-pointer -no-pie -Wl,--section-start=far_code=0x20000800 \
	-Wl,-Ttext-segment=0x10000000 -o far "$PROGS/far_text.c" || fail build
readelf -lW far | grep -q '0x0*20000800' || fail "linker did not place far_code apart"
record far.data ./far 300000
compare far.data
expect_line far.data "far_work\+0x[0-9a-f]+ \($TEST_TMP/far\)"
expect_line far.data "main\+0x[0-9a-f]+ \($TEST_TMP/far\)"
