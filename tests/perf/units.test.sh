# units: a graph of a perf.data says what its counts are (issue 12): time for cpu-clock
# and task-clock (ms or s, with the sample count beside it) in the title, every frame's
# tooltip, the search total and `tephra diff`; the event's name for counters; folded
# output stays plain integers.  Oracle: perf report's sample count and event count.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
record "$TEST_TMP/clock.data" -g -e cpu-clock -- "$WL/recurse" 200
record "$TEST_TMP/faults.data" -g -e page-faults -- "$WL/recurse" 50

# SAMPLES EVENT-COUNT of a recording, as perf report counts them
report_counts() {
	perf report -i "$1" --stdio --sort comm 2>/dev/null | awk '
		/^# Samples: / { s = $3 } /^# Event count/ { c = $NF } END { print s, c }'
}
# has FILE TEXT: FILE contains TEXT literally
has() { grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks: $2"; }

read -r n ns < <(report_counts "$TEST_TMP/clock.data")
case $n in *[!0-9]*|'') fail "perf report gave no sample count"; finish ;; esac
ms=$(awk -v ns="$ns" 'BEGIN { if (ns >= 1e9) printf "%.2f s", ns / 1e9; else printf "%.2f ms", ns / 1e6 }')
echo "cpu-clock: $n samples, $ns ns = $ms"
"$TEPHRA" flamegraph "$TEST_TMP/clock.data" -o "$TEST_TMP/clock.svg" 2>/dev/null || fail "flamegraph failed"
has "$TEST_TMP/clock.svg" ">Flame Graph: cpu-clock $ms in $n samples</text>"
has "$TEST_TMP/clock.svg" "<title>all ($ms, $n samples, 100%)</title>"
has "$TEST_TMP/clock.svg" "<title>recurse ($ms, $n samples, 100.00%)</title>"
grep -q '<title>[^<]* samples, 100%' "$TEST_TMP/clock.svg" && grep -q "<title>all ($ns samples" "$TEST_TMP/clock.svg" &&
	fail "the total is still nanoseconds called samples"
# every frame: a time, then its samples
bad=$(grep -o '<title>[^<]*</title>' "$TEST_TMP/clock.svg" | grep -cvE ' \([0-9]+\.[0-9]{2} m?s, [0-9]+ samples?, [0-9.]+%\)</title>$')
[ "$bad" -eq 0 ] || fail "$bad tooltips without 'TIME, N samples'"
# the flame chart (per-sample path) counts the same
"$TEPHRA" flamegraph --flamechart "$TEST_TMP/clock.data" -o "$TEST_TMP/chart.svg" 2>/dev/null || fail "flamechart failed"
has "$TEST_TMP/chart.svg" "<title>all ($ms, $n samples, 100%)</title>"
# the search total, in the page's own script (node, when installed)
if want_tool node "the search total's unit" "Debian: nodejs"; then
	sed -n '/<script><!\[CDATA\[/,/\]\]><\/script>/p' "$TEST_TMP/clock.svg" | sed '1d;$d' >"$TEST_TMP/page.js"
	got=$(cd "$TEST_TMP" && node -e 'var window = { addEventListener() {} }, document = {}; eval(require("fs").readFileSync("page.js", "utf8")); console.log(amount(C.total));')
	[ "$got" = "$ms" ] && echo "ok: search total $got" || fail "search total: '$got', expected '$ms'"
fi
# --weight samples: counts are samples; --countname wins
"$TEPHRA" flamegraph --weight samples "$TEST_TMP/clock.data" -o "$TEST_TMP/w.svg" 2>/dev/null || fail "--weight samples failed"
has "$TEST_TMP/w.svg" "<title>all ($n samples, 100%)</title>"
"$TEPHRA" flamegraph --countname ticks "$TEST_TMP/clock.data" -o "$TEST_TMP/c.svg" 2>/dev/null || fail "--countname failed"
has "$TEST_TMP/c.svg" "<title>all ($ns ticks, $n samples, 100%)</title>"
# folded output: plain integers summing to the event count
sum=$("$TEPHRA" fold -q "$TEST_TMP/clock.data" | awk '$NF !~ /^[0-9]+$/ { bad = 1 } { s += $NF } END { print bad ? "bad" : s }')
[ "$sum" = "$ns" ] && echo "ok: fold sums to $ns" || fail "fold: weights sum to '$sum', not $ns"
# diff of two clock recordings: time too
"$TEPHRA" diff "$TEST_TMP/clock.data" "$TEST_TMP/clock.data" -o "$TEST_TMP/d.svg" 2>/dev/null || fail "diff failed"
has "$TEST_TMP/d.svg" "<title>all ($ms, 100%)</title>"

# a counter: its name
read -r fn fc < <(report_counts "$TEST_TMP/faults.data")
echo "page-faults: $fn samples, count $fc"
"$TEPHRA" flamegraph "$TEST_TMP/faults.data" -o "$TEST_TMP/faults.svg" 2>/dev/null || fail "flamegraph (page-faults) failed"
has "$TEST_TMP/faults.svg" ">Flame Graph: $fc page-faults in $fn samples</text>"
has "$TEST_TMP/faults.svg" "<title>all ($fc page-faults, $fn samples, 100%)</title>"

# tephra record draws the same graph
(cd "$TEST_TMP" && "$TEPHRA" record -F 999 -e cpu-clock -d r.data -o r.svg -- "$WL/recurse" 100 >/dev/null 2>&1) ||
	fail "tephra record failed"
read -r rn rns < <(report_counts "$TEST_TMP/r.data")
rms=$(awk -v ns="$rns" 'BEGIN { if (ns >= 1e9) printf "%.2f s", ns / 1e9; else printf "%.2f ms", ns / 1e6 }')
has "$TEST_TMP/r.svg" "<title>all ($rms, $rn samples, 100%)</title>"
finish
