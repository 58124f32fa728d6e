#!/usr/bin/env bash
# The libFuzzer targets of fuzz/ (docs/fuzzing.md) cannot rot: each is built (clang,
# ASan+UBSan) and run a fixed number of inputs from its committed seed corpus with a
# fixed seed, then every regression input under tests/fuzz/regressions/NAME/ is replayed
# through target NAME.  A crash, leak, UBSan report, allocation over 2 GB or a run that
# hangs fails the test.  Fixed run counts, not times: the outcome does not depend on load
# (the per-input time limit is a generous hang detector, not a speed check).
set -u
command -v clang >/dev/null 2>&1 || { echo "clang not installed (scripts/install-deps test)"; exit 77; }
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' |
	clang -x c -fsanitize=fuzzer,address,undefined -o "$TEST_TMP/probe" - >/dev/null 2>&1 ||
	{ echo "clang cannot link libFuzzer (libclang-rt-dev: scripts/install-deps test)"; exit 77; }
cd "$TOP"
if ! make --no-print-directory fuzz-build >"$TEST_TMP/build.log" 2>&1; then
	tail -n 30 "$TEST_TMP/build.log"
	echo "FAIL: make fuzz-build"
	exit 1
fi
limits=(-timeout=300 -rss_limit_mb=2048 -malloc_limit_mb=2048)
status=0
for src in fuzz/fuzz_*.c; do
	name=$(basename "$src" .c); name=${name#fuzz_}
	bin=build/fuzz/fuzz_$name
	runs=2000
	[ "$name" = perf_pipeline ] && runs=300
	dict=(); [ -f "fuzz/dict/$name.dict" ] && dict=(-dict="fuzz/dict/$name.dict")
	mkdir -p "$TEST_TMP/corpus/$name"
	# the new inputs go to the scratch corpus named first, never into fuzz/corpus
	if "$bin" "${limits[@]}" "${dict[@]}" -seed=1 -runs=$runs -print_final_stats=1 \
		-artifact_prefix="$TEST_TMP/$name-" "$TEST_TMP/corpus/$name" "fuzz/corpus/$name" \
		>"$TEST_TMP/$name.log" 2>&1; then
		echo "ok   $name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$TEST_TMP/$name.log")"
	else
		echo "FAIL $name (fuzzing $runs inputs from fuzz/corpus/$name):"
		grep -A25 -m1 -E '^==[0-9]+==|runtime error|ERROR: libFuzzer' "$TEST_TMP/$name.log" | head -n 40
		status=1
	fi
	if [ -d "tests/fuzz/regressions/$name" ]; then
		for input in "tests/fuzz/regressions/$name"/*; do
			[ -f "$input" ] || continue
			if "$bin" "${limits[@]}" "$input" >"$TEST_TMP/replay.log" 2>&1; then
				echo "ok   $name: replayed $input"
			else
				echo "FAIL $name: regression input $input:"
				grep -A25 -m1 -E '^==[0-9]+==|runtime error|ERROR: libFuzzer' "$TEST_TMP/replay.log" | head -n 40
				status=1
			fi
		done
	fi
done
exit $status
