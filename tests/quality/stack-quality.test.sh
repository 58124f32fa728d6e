#!/usr/bin/env bash
# The stack-quality report of DWARF recordings (tephra fold's stderr block, tephra stat's
# section): a stack dump deliberately too small (--call-graph dwarf,1024) for a workload
# whose stack needs ~5.5 KB must report cut-short stacks and a larger dump size; a
# stripped binary must be named as having no symbols; every count must equal the one the
# test makes from `perf script` output; -q silences the block; frame-pointer recordings
# get the frame-pointer block, not this one (tests/quality/fp-block.test.sh).
. "$TOP/tests/quality/lib.sh"
need_perf
cc -O2 -g -fno-omit-frame-pointer -o "$TEST_TMP/bigframes" "$TOP/tests/quality/bigframes.c" || exit 1

# 1. cut short: dwarf,1024.  -D: from after the dynamic loader (where perf's and tephra's
# walks may stop at different frames when a read meets the end of the dump: unwinder
# parity, tests/unwind)
record "$TEST_TMP/cut.data" --call-graph dwarf,1024 -D 20 -- "$TEST_TMP/bigframes" 3000000
"$TEPHRA" fold "$TEST_TMP/cut.data" >"$TEST_TMP/cut.fold" 2>"$TEST_TMP/cut.err" || fail "tephra fold failed"
cat "$TEST_TMP/cut.err"
read -r samples frames unknown markers cut <<<"$(perf_counts "$TEST_TMP/cut.data")"
echo "perf script: $samples samples, $frames frame lines, $unknown [unknown] ($markers cut markers), $cut cut stacks"
[ "$(field "$TEST_TMP/cut.err" 'samples:')" = "$samples" ] || fail "samples differ from perf script's $samples"
got_cut=$(field "$TEST_TMP/cut.err" 'cut short (stack dump full):')
[ "$got_cut" = "$cut" ] || fail "cut-short stacks: $got_cut, perf script ended $cut stacks for want of stack"
[ "$cut" -gt $((samples / 2)) ] || fail "only $cut of $samples stacks cut short with a 1024-byte dump"
size=$(field "$TEST_TMP/cut.err" 'needed dump size: at least')
[ -n "$size" ] && [ "$size" -gt 1024 ] || fail "no needed dump size above 1024 reported"
grep -q -- "--call-graph dwarf,$size" "$TEST_TMP/cut.err" || fail "no --call-graph dwarf,$size hint"
# frames: as perf script prints them, less the markers tephra does not print
got_unknown=$(field "$TEST_TMP/cut.err" '\[unknown\] frames:')
got_frames=$(sed -n 's/.*\[unknown\] frames: [0-9]* of \([0-9]*\).*/\1/p' "$TEST_TMP/cut.err")
[ "$got_frames" = "$((frames - markers))" ] || fail "frames: $got_frames, perf script $frames - $markers markers"
[ "$got_unknown" = "$((unknown - markers))" ] || fail "[unknown] frames: $got_unknown, perf script $unknown - $markers markers"
# the full report says the same
"$TEPHRA" stat "$TEST_TMP/cut.data" >"$TEST_TMP/cut.stat" || fail "tephra stat failed"
sed -n '/^stack quality:/,$p' "$TEST_TMP/cut.stat" >"$TEST_TMP/cut.stat.q"
[ -s "$TEST_TMP/cut.stat.q" ] || fail "tephra stat has no stack-quality section"
for key in 'samples:' 'cut short (stack dump full):' 'needed dump size: at least' '\[unknown\] frames:'; do
	v=$(field "$TEST_TMP/cut.stat.q" "$key")
	[ -n "$v" ] && [ "$v" = "$(field "$TEST_TMP/cut.err" "$key")" ] ||
		fail "tephra stat and tephra fold disagree on '$key'"
done
# -q: no block, same folded stacks
"$TEPHRA" fold -q "$TEST_TMP/cut.data" >"$TEST_TMP/cut-q.fold" 2>"$TEST_TMP/cut-q.err"
[ -s "$TEST_TMP/cut-q.err" ] && fail "-q still printed: $(head -n 2 "$TEST_TMP/cut-q.err")"
cmp -s "$TEST_TMP/cut.fold" "$TEST_TMP/cut-q.fold" || fail "-q changed the folded output"

# 2. a stripped binary: named as having no symbols, its [unknown] frames counted
cp "$TEST_TMP/bigframes" "$TEST_TMP/stripped"
strip "$TEST_TMP/stripped"
record "$TEST_TMP/strip.data" --call-graph dwarf -D 20 -- "$TEST_TMP/stripped" 3000000
"$TEPHRA" fold "$TEST_TMP/strip.data" >/dev/null 2>"$TEST_TMP/strip.err" || fail "tephra fold (stripped) failed"
cat "$TEST_TMP/strip.err"
grep -q "no symbols: .*$TEST_TMP/stripped" "$TEST_TMP/strip.err" || fail "the stripped binary is not named as having no symbols"
grep -q 'dbgsym' "$TEST_TMP/strip.err" || fail "no -dbgsym hint"
in_stripped=$(perf script -i "$TEST_TMP/strip.data" 2>/dev/null |
	awk -v f="($TEST_TMP/stripped)" '/^\t/ && $2 == "[unknown]" && $3 == f { n++ } END { print n + 0 }')
[ "$in_stripped" -gt 0 ] || fail "perf script shows no [unknown] frame in the stripped binary"
grep -q "$TEST_TMP/stripped $in_stripped\b" "$TEST_TMP/strip.err" ||
	fail "[unknown] frames in the stripped binary: perf script has $in_stripped"

# 3. frame pointers: no DWARF walks, the frame-pointer block
record "$TEST_TMP/fp.data" -g -- "$TEST_TMP/bigframes" 1000000
"$TEPHRA" fold "$TEST_TMP/fp.data" >/dev/null 2>"$TEST_TMP/fp.err" || fail "tephra fold (fp) failed"
grep -q 'stack quality of .* (frame-pointer call graphs' "$TEST_TMP/fp.err" ||
	fail "a frame-pointer recording got no frame-pointer block: $(head -n 1 "$TEST_TMP/fp.err")"
grep -q 'cut short (stack dump full)' "$TEST_TMP/fp.err" && fail "a frame-pointer recording got DWARF's lines"
if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" fold "$TEST_TMP/cut.data" >"$TEST_TMP/cut-asan.fold" 2>"$TEST_TMP/cut-asan.err" ||
		fail "ASan fold failed: $(head -n 5 "$TEST_TMP/cut-asan.err")"
	cmp -s "$TEST_TMP/cut.err" "$TEST_TMP/cut-asan.err" || fail "ASan build reports differently"
	"$TEPHRA_ASAN" stat "$TEST_TMP/strip.data" >/dev/null 2>"$TEST_TMP/stat-asan.err" ||
		fail "ASan stat failed: $(head -n 5 "$TEST_TMP/stat-asan.err")"
fi
finish
