#!/usr/bin/env bash
# tephra heatmap on a two-phase program recorded here with the machine's perf
# (tests/workloads/phases.c: phase_one() then phase_two(), 400 ms of thread CPU each,
# cpu-clock): the page opened in headless Chromium (--dump-dom, the state in the URL's
# fragment) must draw, for the cells after the last sample of phase_one, a flame graph
# with phase_two and without phase_one (and the reverse before phase_two's first cell),
# and for every selection (time ranges both ways, a rectangle, a whole column) exactly
# the samples and weight perf script lists in those cells; the whole page's weight is
# tephra fold's total (tests/heatmap/heatmap_check.py).
. "$TOP/tests/perf/lib.sh"
need_perf
command -v chromium >/dev/null 2>&1 || skip "chromium is not installed"
build_workloads
data=$TEST_TMP/phases.data
record "$data" -e cpu-clock -F 1000 -g -- "$WL/phases" 400
perf script -i "$data" -F time,period,ip,sym --ns >"$TEST_TMP/script.txt" 2>/dev/null
total=$("$TEPHRA" fold -q "$data" | awk '{ s += $NF } END { printf "%d", s }')
for rows in 50 7; do
	page=$TEST_TMP/heat-$rows.html
	"$TEPHRA" heatmap --rows "$rows" -o "$page" "$data" 2>"$TEST_TMP/heatmap.err" ||
		{ fail "tephra heatmap --rows $rows failed: $(head -n 3 "$TEST_TMP/heatmap.err")"; continue; }
	mkdir -p "$TEST_TMP/chromium-$rows"
	echo "--- $rows rows per second"
	python3 "$TOP/tests/heatmap/heatmap_check.py" "$TEST_TMP/script.txt" "$total" "$page" \
		"$rows" "$TEST_TMP/chromium-$rows" phase_one phase_two ||
		fail "$rows rows per second: the page differs from perf script"
done
finish
