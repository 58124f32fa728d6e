# asan: the ASan+UBSan build ($TEPHRA_ASAN) on real recordings (frame pointers, pipe,
# compressed, system-wide) must print the same bytes as perf script and fold the same,
# and on damaged files (truncated at many points, garbage, empty) must end cleanly: with
# --strict a non-zero exit, without it the whole records and a warning (or an error when
# the header itself is cut), a message naming the file, no sanitizer report, no hang.
. "$TOP/tests/perf/lib.sh"
[ -x "${TEPHRA_ASAN:-}" ] || skip "no ASan build (make asan)"
need_perf
build_workloads
TEPHRA_BIN=$TEPHRA_ASAN
record "$TEST_TMP/t.data" -g -- "$WL/templates" 150
check_script asan-templates "$TEST_TMP/t.data"
check_fold asan-templates "$TEST_TMP/t.data" "" ""
record "$TEST_TMP/z.data" -g -z -- "$WL/threads" 100
check_script asan-zstd "$TEST_TMP/z.data"
check_fold asan-zstd "$TEST_TMP/z.data" "" ""
record "$TEST_TMP/a.data" -g -a -- "$WL/threads" 100
check_script asan-all-lines "$TEST_TMP/a.data" -F comm,tid,cpu,time,period,event
check_script asan-all "$TEST_TMP/a.data" --comms "swapper,threads,worker-a,worker 2"
perf record -q -N -g -o - -- "$WL/recurse" 100 2>/dev/null >"$TEST_TMP/pipe.data"
perf script -i "$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.perf" 2>/dev/null
"$TEPHRA_ASAN" script - <"$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.tephra" 2>"$TEST_TMP/pipe.err" || fail "asan pipe: $(head -3 "$TEST_TMP/pipe.err")"
same_bytes "asan pipe: script -" "$TEST_TMP/pipe.perf" "$TEST_TMP/pipe.tephra"

# damaged inputs: with --strict an error; without, whatever whole records there are with
# a warning (or an error when not even the header is whole); both name the file
bad_input() { # NAME FILE [features-only: the cut leaves the data section whole]
	local rc strict
	for cmd in script fold; do
		for strict in --strict ""; do
			"$TOP/tests/bounded" 20 "$TEPHRA_ASAN" "$cmd" $strict -i "$2" >/dev/null 2>"$TEST_TMP/bad.err" </dev/null
			rc=$?
			if [ $rc -eq 124 ]; then fail "$1: tephra $cmd $strict hangs"; continue; fi
			if grep -q 'Sanitizer\|runtime error' "$TEST_TMP/bad.err"; then
				fail "$1: tephra $cmd $strict: sanitizer report:"; head -n 15 "$TEST_TMP/bad.err"; continue
			fi
			# a cut that takes only feature sections leaves the samples whole: optional
			# sections are warnings even under --strict
			[ -n "$strict" ] && [ $rc -eq 0 ] && [ -z "${3:-}" ] &&
				fail "$1: tephra $cmd --strict succeeded on a damaged file"
			[ $rc -le 1 ] || fail "$1: tephra $cmd $strict: exit $rc"
			grep -q "$2" "$TEST_TMP/bad.err" || fail "$1: tephra $cmd $strict: message does not name the file: $(head -c 300 "$TEST_TMP/bad.err")"
		done
	done
}
size=$(stat -c %s "$TEST_TMP/t.data")
for cut in 0 7 100 1000 3000 $((size / 3)) $((size / 2)) $((size - 9)); do
	head -c "$cut" "$TEST_TMP/t.data" >"$TEST_TMP/cut-$cut.data"
	data_end=$(( $(od -An -tu8 -j40 -N8 "$TEST_TMP/t.data") + $(od -An -tu8 -j48 -N8 "$TEST_TMP/t.data") ))
	bad_input "truncated at $cut" "$TEST_TMP/cut-$cut.data" "$( [ "$cut" -ge "$data_end" ] && echo features-only)"
done
head -c 20000 /dev/urandom >"$TEST_TMP/garbage.data"
bad_input garbage "$TEST_TMP/garbage.data"
# a valid header with the sample records' bytes scrambled
python3 - "$TEST_TMP/t.data" "$TEST_TMP/scrambled.data" <<'PY'
import sys, random
d = bytearray(open(sys.argv[1], 'rb').read())
random.seed(7)
for _ in range(200):
    i = random.randrange(0x200, len(d))
    d[i] = random.randrange(256)
open(sys.argv[2], 'wb').write(d)
PY
for cmd in script fold; do
	"$TOP/tests/bounded" 60 "$TEPHRA_ASAN" "$cmd" -i "$TEST_TMP/scrambled.data" >/dev/null 2>"$TEST_TMP/scr.err"
	rc=$?
	[ $rc -ne 124 ] || fail "scrambled: tephra $cmd hangs"
	if grep -q 'Sanitizer\|runtime error' "$TEST_TMP/scr.err"; then fail "scrambled: $cmd: sanitizer report"; head -n 15 "$TEST_TMP/scr.err"; fi
done
finish
