# vdso: [vdso] frames of recordings that name no build-id for the vdso (pipe mode, -z
# files): perf names them from its own vdso, so must tephra.  The workload reads the clock
# in a loop for 300 ms of CPU time (about 1200 samples at perf's 4000 Hz, ~90% of them in
# __vdso_clock_gettime where the clock is the vDSO's); perf script's own output must name
# __vdso_* frames for the check to mean anything, and does by construction.
. "$TOP/tests/perf/lib.sh"
need_perf
need_tool cc
cc -O1 -fno-omit-frame-pointer -o "$TEST_TMP/vdso_clock" "$HERE/vdso_clock.c" ||
	{ echo "building vdso_clock failed"; exit 1; }

perf record -q -N -g -o - -- "$TEST_TMP/vdso_clock" 300 2>/dev/null >"$TEST_TMP/pipe.data" ||
	{ echo "perf record -o - failed"; exit 1; }
perf script -i "$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.perf" 2>/dev/null
grep -q '__vdso_[a-z_]*+0x[0-9a-f]* (\[vdso\])' "$TEST_TMP/pipe.perf" || {
	echo "FAIL: perf script names no vdso frame in 300 ms of clock_gettime (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null): no vDSO clock?)"
	exit 1; }
check_script vdso-pipe "$TEST_TMP/pipe.data"
check_fold vdso-pipe "$TEST_TMP/pipe.data" "" ""
# the same stream read from a live pipe, and by the ASan build
"$TEPHRA" script - <"$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.stdin" || fail "tephra script - failed"
same_bytes "vdso-pipe: script -" "$TEST_TMP/pipe.perf" "$TEST_TMP/pipe.stdin"
if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" script -i "$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.asan" 2>"$TEST_TMP/asan.err" ||
		fail "ASan build failed: $(head -n 5 "$TEST_TMP/asan.err")"
	same_bytes "vdso-pipe: script (ASan)" "$TEST_TMP/pipe.perf" "$TEST_TMP/pipe.asan"
fi

record "$TEST_TMP/z.data" -g -z -- "$TEST_TMP/vdso_clock" 300
check_script vdso-zstd "$TEST_TMP/z.data"
check_fold vdso-zstd "$TEST_TMP/z.data" "" ""
finish
