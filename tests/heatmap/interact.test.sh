#!/usr/bin/env bash
# tephra heatmap's page driven with the mouse in headless Chromium (playwright-core, as
# tests/browser installs it): dragging over cells, shift-dragging and clicking the
# seconds axis put the rectangle, time range and column of the cells under the mouse in
# the URL, and opening that URL afresh selects the same samples; a frame click zooms
# (in the URL, Back undoes it), "whole profile" clears it, colouring and rows are kept
# (tests/heatmap/interact.js).
. "$TOP/tests/perf/lib.sh"
need_perf
[ -x /usr/bin/chromium ] || skip "chromium is not installed"
command -v npm >/dev/null || skip "npm is not installed"
B=$TOP/tests/browser
if [ ! -d "$B/node_modules/playwright-core" ]; then
	(cd "$B" && npm ci --no-audit --no-fund --loglevel=error) ||
		skip "npm ci could not install playwright-core"
fi
build_workloads
record "$TEST_TMP/phases.data" -e cpu-clock -F 1000 -g -- "$WL/phases" 700
"$TEPHRA" heatmap -o "$TEST_TMP/page.html" "$TEST_TMP/phases.data" || exit 1
NODE_PATH=$B/node_modules node "$TOP/tests/heatmap/interact.js" "$TEST_TMP/page.html"
