#!/usr/bin/env bash
# On a frame-pointer recording `tephra export` describes its frames, and so loads the
# DWARF their source lines come from, only after the last sample is read and the fold's
# raw-stack table is freed (perffold's defer_export; docs/export.md, "Speed and memory":
# the two peaks no longer add up).  tests/export/export_order_driver.c folds a recording
# made here as cmd_export does, counting the samples handed over before the first
# object's DWARF is opened and the requests to load DWARF ahead: all of them, and none,
# on frame pointers, with the source lines still found (libc's, from libc6-dbg); and
# the ASan build exports it.  A DWARF recording keeps the path it had (its frames are
# named from DWARF while reading; when depends on the symbol loading, so only its
# samples and lines are checked).  What the exported files hold is checked against
# fold and perf by pprof/callgrind/speedscope/report.test.sh.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
LIB=$TOP/build/libtephra-internal.a
[ -f "$LIB" ] || { echo "build/libtephra-internal.a missing: run make"; exit 1; }
LIBS="-ldw -lelf -lzstd -lz -ldeflate -liberty -lpthread -lm"
# shellcheck disable=SC2086
cc -std=gnu11 -Wall -Wextra -Werror -O2 -D_GNU_SOURCE -I"$TOP/src" -o "$TEST_TMP/order" \
	-Wl,--wrap=a2l_open,--wrap=symbol_store_prefetch \
	"$TOP/tests/export/export_order_driver.c" "$LIB" $LIBS || { echo "building the driver failed"; exit 1; }

record "$TEST_TMP/fp.data" -e cpu-clock -F 4000 -g -- "$WL/threads"
samples=$(perf script -i "$TEST_TMP/fp.data" -F period 2>/dev/null | grep -c .)
read -r _ n _ after _ asked _ located < <("$TEST_TMP/order" "$TEST_TMP/fp.data")
[ "${n:-0}" = "$samples" ] || fail "fp: the sink got ${n:-none} samples, perf script prints $samples"
[ "${asked:-1}" = 0 ] && echo "ok: fp: no object's DWARF asked for while reading" ||
	fail "fp: $asked objects' DWARF asked for ahead, while reading"
[ "${after:-0}" = "$samples" ] && echo "ok: fp: DWARF opened after the $samples samples" ||
	fail "fp: DWARF opened after ${after:-?} of $samples samples"
[ "${located:-0}" -gt 0 ] && echo "ok: fp: $located frames with a source line" ||
	fail "fp: no frame has a source line"

# the ASan+UBSan build (which stops at the first report) exports it, both granularities
if [ -x "${TEPHRA_ASAN:-}" ]; then
	for g in addresses functions; do
		"$TEPHRA_ASAN" export -f pprof --granularity=$g -o "$TEST_TMP/asan.$g.pb.gz" "$TEST_TMP/fp.data" \
			2>"$TEST_TMP/asan.err" && [ -s "$TEST_TMP/asan.$g.pb.gz" ] &&
			echo "ok: fp: ASan build, --granularity=$g" || fail "ASan ($g): $(head -n 5 "$TEST_TMP/asan.err")"
	done
fi

record "$TEST_TMP/dw.data" -e cpu-clock -F 4000 --call-graph dwarf -- "$WL/recurse"
samples=$(perf script -i "$TEST_TMP/dw.data" -F period 2>/dev/null | grep -c .)
read -r _ n _ after _ asked _ located < <("$TEST_TMP/order" "$TEST_TMP/dw.data")
[ "${n:-0}" = "$samples" ] || fail "dwarf: the sink got ${n:-none} samples, perf script prints $samples"
[ "${located:-0}" -gt 0 ] && echo "ok: dwarf: $located frames with a source line" ||
	fail "dwarf: no frame has a source line"
finish
