#!/usr/bin/env bash
# The speedscope app itself (the `speedscope` npm package's built index.html, installed by
# npm ci in tests/export/speedscope) imports `tephra export -f speedscope` of a threaded
# recording made here with the machine's perf, in headless Chromium driven by
# playwright-core (tests/browser's install): no import error, the profiles it lists are
# exactly perf script's threads with their names and the totals of their periods, and
# each thread's Sandwich table has tephra fold's functions with their total and self
# weights in the app's units and rounding (tests/export/speedscope_app.js).
. "$TOP/tests/perf/lib.sh"
. "$TOP/tests/export/speedscope_lib.sh"
[ -x /usr/bin/chromium ] || skip "skip: chromium is not installed (scripts/install-deps test)"
command -v npm >/dev/null 2>&1 || skip "skip: npm is not installed"
need_perf
X=$TOP/tests/export
B=$TOP/tests/browser
if [ ! -d "$X/speedscope/node_modules/speedscope" ]; then
	(cd "$X/speedscope" && npm ci --no-audit --no-fund --loglevel=error) ||
		skip "skip: npm ci could not install speedscope"
fi
if [ ! -d "$B/node_modules/playwright-core" ]; then
	(cd "$B" && npm ci --no-audit --no-fund --loglevel=error) ||
		skip "skip: npm ci could not install playwright-core"
fi
build_workloads
record "$TEST_TMP/threads.data" -e cpu-clock -F 4000 -g -- "$WL/threads"
"$TEPHRA" export -f speedscope -o "$TEST_TMP/threads.json" "$TEST_TMP/threads.data" ||
	{ echo "tephra export failed"; exit 1; }
thread_oracles "$TEST_TMP/threads.data" "$TEST_TMP/threads"
NODE_PATH=$B/node_modules node "$X/speedscope_app.js" "$TEST_TMP/threads.json" "$TEST_TMP/threads" \
	"$X/speedscope/node_modules/speedscope/dist/release/index.html"
