#!/usr/bin/env bash
# `tephra script` prints the stack-quality block of DWARF recordings on stderr after the
# script text, as `tephra fold` does: its numbers must equal counts the test makes from
# the machine's `perf script` output (samples, cut-short stacks, frame lines, [unknown]
# lines, the stripped object's [unknown] lines; with --no-inline, the lines of
# `perf script --no-inline`), its body must be fold's, -q/--quiet silence it, a
# frame-pointer recording gets the frame-pointer block (tests/quality/fp-block.test.sh),
# and stdout stays perf script's bytes throughout.
. "$TOP/tests/quality/lib.sh"
need_perf
cc -O2 -g -fno-omit-frame-pointer -o "$TEST_TMP/bigframes" "$TOP/tests/quality/bigframes.c" || exit 1
cc -O1 -g -fno-omit-frame-pointer -o "$TEST_TMP/recurse" "$TOP/tests/workloads/recurse.c" || exit 1

MARKER=$'\tffffffffffffffff [unknown] ([unknown])'

# block FILE: the quality block in FILE (its heading and the indented lines after it)
block() {
	awk '/: stack quality of / { on = 1; print; next } on && /^ / { print; next } { on = 0 }' "$1"
}
# body FILE: the block without its heading (which names the command)
body() { block "$1" | tail -n +2; }
# script NAME DATA [OPTIONS...]: tephra script's stdout and stderr into NAME.out/.err
script() {
	local name=$1 data=$2; shift 2
	"$TEPHRA" script "$@" "$data" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" ||
		fail "$name: tephra script $* failed: $(head -n 3 "$TEST_TMP/$name.err")"
}
# same_as_perf NAME DATA [OPTIONS...]: NAME.out equals perf script's stdout (same options)
same_as_perf() {
	local name=$1 data=$2; shift 2
	perf script "$@" -i "$data" >"$TEST_TMP/$name.perf" 2>/dev/null
	[ -s "$TEST_TMP/$name.perf" ] || fail "$name: perf script printed nothing"
	cmp -s "$TEST_TMP/$name.perf" "$TEST_TMP/$name.out" ||
		fail "$name: stdout differs from perf script $*: $(diff "$TEST_TMP/$name.perf" "$TEST_TMP/$name.out" | head -n 4)"
}

# 1. cut short (dwarf,1024; -D 20: after the dynamic loader, see stack-quality.test.sh)
record "$TEST_TMP/cut.data" --call-graph dwarf,1024 -D 20 -- "$TEST_TMP/bigframes" 3000000
script cut "$TEST_TMP/cut.data"
cat "$TEST_TMP/cut.err"
# stdout: perf script's bytes but the marker lines tephra does not print (docs/stack-quality.md)
perf script -i "$TEST_TMP/cut.data" 2>/dev/null | grep -vxF "$MARKER" >"$TEST_TMP/cut.perf-markers"
cmp -s "$TEST_TMP/cut.perf-markers" "$TEST_TMP/cut.out" || fail "cut: stdout differs from perf script (markers aside)"
grep -q "^tephra script: stack quality of $TEST_TMP/cut.data " "$TEST_TMP/cut.err" ||
	fail "cut: no block headed 'tephra script: stack quality of FILE'"
[ "$(block "$TEST_TMP/cut.err" | wc -l)" = "$(wc -l <"$TEST_TMP/cut.err")" ] ||
	fail "cut: stderr holds more than the block"
read -r samples frames unknown markers cut <<<"$(perf_counts "$TEST_TMP/cut.data")"
echo "perf script: $samples samples, $frames frame lines, $unknown [unknown] ($markers cut markers), $cut cut stacks"
[ "$(field "$TEST_TMP/cut.err" 'samples:')" = "$samples" ] || fail "cut: samples differ from perf script's $samples"
got_cut=$(field "$TEST_TMP/cut.err" 'cut short (stack dump full):')
[ "$got_cut" = "$cut" ] || fail "cut: cut-short stacks $got_cut, perf script ended $cut stacks for want of stack"
[ "$cut" -gt $((samples / 2)) ] || fail "cut: only $cut of $samples stacks cut short with a 1024-byte dump"
size=$(field "$TEST_TMP/cut.err" 'needed dump size: at least')
[ -n "$size" ] && [ "$size" -gt 1024 ] || fail "cut: no needed dump size above 1024 reported"
grep -q -- "--call-graph dwarf,$size" "$TEST_TMP/cut.err" || fail "cut: no --call-graph dwarf,$size hint"
got_frames=$(sed -n 's/.*\[unknown\] frames: [0-9]* of \([0-9]*\).*/\1/p' "$TEST_TMP/cut.err")
[ "$got_frames" = "$((frames - markers))" ] || fail "cut: frames $got_frames, perf script $frames - $markers markers"
[ "$(field "$TEST_TMP/cut.err" '\[unknown\] frames:')" = "$((unknown - markers))" ] ||
	fail "cut: [unknown] frames differ from perf script's $unknown - $markers markers"
# the same block as tephra fold's, its heading aside
"$TEPHRA" fold "$TEST_TMP/cut.data" >/dev/null 2>"$TEST_TMP/cut.fold.err" || fail "cut: tephra fold failed"
grep -q "^tephra fold: stack quality of " "$TEST_TMP/cut.fold.err" || fail "cut: tephra fold printed no block"
diff <(body "$TEST_TMP/cut.fold.err") <(body "$TEST_TMP/cut.err") >"$TEST_TMP/cut.diff" ||
	fail "cut: the block differs from tephra fold's: $(head -n 6 "$TEST_TMP/cut.diff")"
# -q and --quiet: nothing on stderr, the same stdout
for q in -q --quiet; do
	script "cut$q" "$TEST_TMP/cut.data" "$q"
	[ -s "$TEST_TMP/cut$q.err" ] && fail "cut: $q still printed: $(head -n 2 "$TEST_TMP/cut$q.err")"
	cmp -s "$TEST_TMP/cut.out" "$TEST_TMP/cut$q.out" || fail "cut: $q changed stdout"
done

# on a terminal the progress line ("tephra: 100%", no newline) is wiped before the block
# (util-linux's script(1); "command": this file's own script() is tephra script)
if want_tool script "the block on a terminal" "util-linux"; then
	command script -qc "'$TEPHRA' script '$TEST_TMP/cut.data' >/dev/null" /dev/null >"$TEST_TMP/tty.err" </dev/null
	grep -aqF 'tephra: 100%' "$TEST_TMP/tty.err" || fail "tty: no progress line on the pseudo-terminal (nothing tested)"
	grep -aq '%tephra script: stack quality' "$TEST_TMP/tty.err" && fail "tty: the block starts on the progress line"
	grep -aq 'tephra script: stack quality' "$TEST_TMP/tty.err" || fail "tty: no block on a terminal"
fi

# 2. a stripped binary: stdout identical, named as having no symbols, its [unknown] lines counted
cp "$TEST_TMP/bigframes" "$TEST_TMP/stripped"
strip "$TEST_TMP/stripped"
record "$TEST_TMP/strip.data" --call-graph dwarf -D 20 -- "$TEST_TMP/stripped" 3000000
script strip "$TEST_TMP/strip.data"
cat "$TEST_TMP/strip.err"
same_as_perf strip "$TEST_TMP/strip.data"
read -r samples frames unknown markers cut <<<"$(perf_counts "$TEST_TMP/strip.data")"
[ "$(field "$TEST_TMP/strip.err" 'samples:')" = "$samples" ] || fail "strip: samples differ from perf script's $samples"
grep -q "\[unknown\] frames: $unknown of $frames " "$TEST_TMP/strip.err" ||
	fail "strip: perf script prints $unknown [unknown] of $frames frame lines"
grep -q "no symbols: .*$TEST_TMP/stripped" "$TEST_TMP/strip.err" || fail "strip: the stripped binary is not named as having no symbols"
in_stripped=$(awk -v f="($TEST_TMP/stripped)" '/^\t/ && $2 == "[unknown]" && $3 == f { n++ } END { print n + 0 }' \
	"$TEST_TMP/strip.perf")
[ "$in_stripped" -gt 0 ] || fail "strip: perf script shows no [unknown] frame in the stripped binary"
grep -q "$TEST_TMP/stripped $in_stripped\b" "$TEST_TMP/strip.err" ||
	fail "strip: [unknown] frames in the stripped binary: perf script has $in_stripped"

# 3. inlined functions: frames counted as printed, with and without --no-inline; pipe mode
record "$TEST_TMP/rec.data" --call-graph dwarf -D 20 -- "$TEST_TMP/recurse" 150
for v in "" --no-inline; do
	script "rec$v" "$TEST_TMP/rec.data" $v
	same_as_perf "rec$v" "$TEST_TMP/rec.data" $v
	read -r samples frames _ <<<"$(awk '/^\t/ { n++; next } /^$/ { next } { s++ } END { print s + 0, n + 0 }' \
		"$TEST_TMP/rec$v.perf")"
	grep -q "samples: $samples," "$TEST_TMP/rec$v.err" || fail "rec$v: perf script has $samples samples"
	grep -q "\[unknown\] frames: [0-9]* of $frames " "$TEST_TMP/rec$v.err" ||
		fail "rec$v: perf script $v prints $frames frame lines: $(grep frames: "$TEST_TMP/rec$v.err")"
	# frames not printed (no ip, or no sym): the block is the same (the stacks are
	# then classified by looking them up instead of from the printed lines)
	for fields in comm,tid ip,dso; do
		"$TEPHRA" script $v -F "$fields" "$TEST_TMP/rec.data" >/dev/null 2>"$TEST_TMP/rec-F.err" ||
			fail "rec$v: tephra script -F $fields failed"
		cmp -s <(body "$TEST_TMP/rec$v.err") <(body "$TEST_TMP/rec-F.err") ||
			fail "rec$v: the block under -F $fields differs: $(diff <(body "$TEST_TMP/rec$v.err") <(body "$TEST_TMP/rec-F.err") | head -n 4)"
	done
done
grep -q ' (inlined)$' "$TEST_TMP/rec.perf" || fail "rec: perf printed no inlined frame (--no-inline not tested)"
perf record -q -N -o - --call-graph dwarf -D 20 -- "$TEST_TMP/recurse" 150 2>/dev/null >"$TEST_TMP/pipe.data"
"$TEPHRA" script - <"$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.out" 2>"$TEST_TMP/pipe.err" || fail "pipe: tephra script - failed"
same_as_perf pipe "$TEST_TMP/pipe.data"
grep -q "^tephra script: stack quality of - " "$TEST_TMP/pipe.err" || fail "pipe: no block for a pipe-mode stream"
grep -q "samples: $(grep -c '^[^	]' "$TEST_TMP/pipe.perf")," "$TEST_TMP/pipe.err" || fail "pipe: samples differ from perf script's"

# 4. frame pointers: the frame-pointer block, stdout identical
record "$TEST_TMP/fp.data" -g -- "$TEST_TMP/bigframes" 1000000
script fp "$TEST_TMP/fp.data"
grep -q '^tephra script: stack quality of .* (frame-pointer call graphs' "$TEST_TMP/fp.err" ||
	fail "fp: no frame-pointer block: $(head -n 1 "$TEST_TMP/fp.err")"
same_as_perf fp "$TEST_TMP/fp.data"

# 5. the ASan build prints the same text and block
if [ -x "${TEPHRA_ASAN:-}" ]; then
	for d in cut strip; do
		"$TEPHRA_ASAN" script "$TEST_TMP/$d.data" >"$TEST_TMP/$d-asan.out" 2>"$TEST_TMP/$d-asan.err" ||
			fail "ASan script ($d) failed: $(head -n 5 "$TEST_TMP/$d-asan.err")"
		cmp -s "$TEST_TMP/$d.out" "$TEST_TMP/$d-asan.out" || fail "ASan build ($d): stdout differs"
		cmp -s "$TEST_TMP/$d.err" "$TEST_TMP/$d-asan.err" || fail "ASan build ($d): stderr differs"
	done
	"$TEPHRA_ASAN" script --no-inline -F comm,tid "$TEST_TMP/rec.data" >/dev/null 2>"$TEST_TMP/rec-asan.err" ||
		fail "ASan script -F comm,tid failed: $(head -n 5 "$TEST_TMP/rec-asan.err")"
	cmp -s <(body "$TEST_TMP/rec--no-inline.err") <(body "$TEST_TMP/rec-asan.err") ||
		fail "ASan build: the block under -F comm,tid (no frames printed) differs from the printed one's"
	# a damaged file: with --strict an error naming it; without, the whole records and a
	# warning naming it; no sanitizer report either way
	head -c $(($(stat -c %s "$TEST_TMP/cut.data") / 2)) "$TEST_TMP/cut.data" >"$TEST_TMP/half.data"
	"$TEPHRA_ASAN" script --strict "$TEST_TMP/half.data" >/dev/null 2>"$TEST_TMP/half.err" &&
		fail "ASan script --strict succeeded on a truncated file"
	grep -q 'Sanitizer\|runtime error' "$TEST_TMP/half.err" && fail "ASan script (truncated): $(head -n 5 "$TEST_TMP/half.err")"
	grep -q "tephra script: .*half.data" "$TEST_TMP/half.err" || fail "truncated: no error naming the file: $(tail -n 2 "$TEST_TMP/half.err")"
	"$TEPHRA_ASAN" script "$TEST_TMP/half.data" >/dev/null 2>"$TEST_TMP/half.err" ||
		fail "ASan script failed on a truncated file: $(head -n 3 "$TEST_TMP/half.err")"
	grep -q 'Sanitizer\|runtime error' "$TEST_TMP/half.err" && fail "ASan script (truncated): $(head -n 5 "$TEST_TMP/half.err")"
	grep -q "^warning: .*half.data: .*cut short" "$TEST_TMP/half.err" || fail "truncated: no warning naming the file: $(head -n 2 "$TEST_TMP/half.err")"
fi
finish
