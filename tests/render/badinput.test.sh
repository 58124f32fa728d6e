#!/usr/bin/env bash
# Bad input never crashes or hangs (ASan+UBSan build) and errors name the file and what.
set -u
d=$TEST_TMP
t=$TEPHRA_ASAN
fail() { echo "FAIL: $*"; exit 1; }
run() { # expected-exit input... ; stderr kept in $d/err
	local want=$1; shift
	"$TOP/tests/bounded" 60 "$t" flamegraph "$@" -o "$d/out.svg" 2> "$d/err"
	local rc=$?
	grep -q 'Sanitizer\|runtime error' "$d/err" && { cat "$d/err"; fail "sanitizer report for $*"; }
	[ "$want" = any ] && [ $rc -le 1 ] && return
	[ $rc = "$want" ] || { cat "$d/err"; fail "exit $rc (want $want) for $*"; }
}
: > "$d/empty"
run 1 "$d/empty"; grep -q "empty: no stack counts found" "$d/err" || fail "empty file message"
run 1 "$d/missing"; grep -q "missing: cannot open" "$d/err" || fail "missing file message"
run 1 "$d"; grep -q "$d: a directory without a data file: not a perf.data directory" "$d/err" || fail "directory message"
head -c 300000 /dev/urandom > "$d/random"
run any "$d/random"  # random bytes may hold lines that parse
# Junk between good lines: drawn, with a warning naming line and offset.
printf 'a;b 1\n\377\376 junk\n;;; 5\nx 99999999999999999999999999999999999999999999999999999999999999999999\nc 2\n' > "$d/mixed"
run 0 "$d/mixed"
grep -q "mixed: warning: ignored 3 lines; the first, line 2 at offset 0x6" "$d/err" || { cat "$d/err"; fail "warning text"; }
# A 70 MiB line without a newline: skipped (over the 64 MiB line limit), memory bounded.
{ echo 'ok 1'; head -c $((70 << 20)) /dev/zero | tr '\0' 'x'; echo ' 5'; } > "$d/long"
run 0 "$d/long"; grep -q "line longer than 64 MiB" "$d/err" || fail "long line message"
# perf.data magic followed by junk: an error from the perf reader, not a crash.
{ printf 'PERFILE2'; head -c 4096 /dev/urandom; } > "$d/bad.data"
run 1 "$d/bad.data"; grep -q "bad.data" "$d/err" || fail "bad perf.data message"
# Option values.
for o in "--width 0" "--width x" "--height -1" "--minwidth 1x" "--fontsize 1e999" "--colors x"; do
	# shellcheck disable=SC2086
	"$t" flamegraph $o "$d/mixed" > /dev/null 2>&1; [ $? = 2 ] || fail "bad option $o accepted"
done
# Unwritable output: error, exit 1.
printf 'a 1\n' | "$t" flamegraph -o /nonexistent/dir/x.svg 2> "$d/err"; [ $? = 1 ] || fail "unwritable output"
grep -q "/nonexistent/dir/x.svg: cannot write" "$d/err" || fail "unwritable message"
echo ok
