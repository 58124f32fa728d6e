#!/usr/bin/env bash
# offcpu/time-slice: `--time` with --off-cpu and --wall on a real program recorded with
# the machine's perf (the workload of offcpu.test.sh).  A slice is charged with exactly
# the part of each off-CPU interval inside it: tests/offcpu/oracle.py --slice works the
# overlaps out, in ns, from the switch times `perf script` prints of the same file, and
# keeps --wall's cpu-clock samples by their time.  The slices are cut from the main
# thread's first two waits as perf prints them (its sleep, wait_sleep, 200 ms, and its
# pipe wait, wait_pipe, unless the kernel dropped one's sample):
#  - cut: inside the sleep, both ends (the sleep began before the slice and ends after);
#  - before: from the middle of the sleep to the middle of the pipe wait;
#  - two: two ranges inside the sleep (one interval charged for both overlaps), the same
#    given in reverse order, and their sum against each range alone;
#  - overlapping ranges: their union, nothing charged twice;
#  - open: from the middle of the pipe wait to the end of the recording;
#  - report --json, export -f speedscope and flamegraph of a slice: the oracle's total;
#  - beyond the end: empty, no error; an empty percentage range: empty.
. "$TOP/tests/offcpu/lib.sh"

record_offcpu_workload

# The main thread's first two waits (S or D, 50 ms or more) with a sched_switch sample
# and a switch-in, from perf's text: "marker out in out in" (ns).  Normally wait_sleep and
# wait_pipe; under load the kernel now and then drops a switch's sample (offcpu.test.sh),
# and then the next wait serves.
waits=$(python3 - "$M" oc.txt <<'PY'
import re, sys
markers, text = set(sys.argv[1].split(",")), sys.argv[2]
head = re.compile(r"^\s*(.*?)\s+(-?\d+)\s+(\d+)\.(\d+):\s+(.*)$")
main, out, found = None, None, []
lines = open(text).read().split("\n")
for i, l in enumerate(lines):
    m = head.match(l)
    if not m:
        continue
    tid, t, rest = m.group(2), int(m.group(3)) * 10**9 + int(m.group(4)), m.group(5)
    if main is None and "sched:sched_switch:" in rest and "prev_comm=offcpu " in rest:
        main = tid
    if tid != main:
        continue
    if "sched:sched_switch:" in rest and "prev_pid=%s " % main in rest:
        stack = []
        for s in lines[i + 1:]:
            if not s.startswith("\t"):
                break
            stack += [s.split()[1].split("+")[0]] if len(s.split()) > 1 else []
        state = re.search(r"prev_state=(\S+)", rest).group(1)
        marker = next((f for f in stack if f in markers), "other")
        out = (t, marker) if state[0] in "SD" else None
    elif rest.startswith("PERF_RECORD_SWITCH IN") and out is not None:
        if t - out[0] >= 50 * 10**6:
            found.append((out[1], out[0], t))
        out = None
if len(found) >= 2:
    print(found[0][0], found[0][1], found[0][2], found[1][1], found[1][2])
PY
)
read -r mark s0 s1 p0 p1 <<<"$waits"
[ -n "${p1:-}" ] || { echo "FAIL: fewer than two waits of the main thread with a sched_switch sample (recorded without loss)"; exit 1; }
d=$(( s1 - s0 ))
echo "main thread: $mark $s0..$s1 ($d ns), next wait $p0..$p1"
# ns as --time's seconds with 9 decimals
sec() { printf '%d.%09d' $(( $1 / 1000000000 )) $(( $1 % 1000000000 )); }
at() { echo $(( s0 + d * $1 / 8 )); }

# check NAME MODE "A,B C,D" (ns) [TIME]: fold --time (TIME, else the ranges in seconds)
# against the oracle, per marker
check() {
	local name=$1 mode=$2 ns=$3 spec=${4:-} opt=--${2/offcpu/off-cpu} r a b
	if [ -z "$spec" ]; then
		for r in $ns; do
			a=${r%,*} b=${r#*,}
			spec+="${spec:+ }$(sec "$a"),$(sec "$b")"
		done
	fi
	python3 "$TOP/tests/offcpu/oracle.py" --slice "$ns" "$mode" "$M" <oc.txt | grep -v '^at_end' >"$name.expected"
	"$TEPHRA" fold -q $opt --time "$spec" oc.data >"$name.folded" 2>"$name.err" ||
		{ fail "$name: tephra fold --time '$spec' failed: $(head -n 3 "$name.err")"; return; }
	python3 "$TOP/tests/offcpu/by_marker.py" "$M" <"$name.folded" >"$name.got"
	same_bytes "$name: $opt --time '$spec', ns per wait" "$name.expected" "$name.got"
}
ns_of() { awk -v k="$1" '$1 == k { n = $2 } END { print n + 0 }' "$2"; }

for mode in offcpu wall; do
	check "cut-$mode" $mode "$(at 2),$(at 4)"
	# exactly the quarter of the sleep between the ends, whatever else ran
	got=$(ns_of "$mark" "cut-$mode.got")
	[ "$got" = $(( $(at 4) - $(at 2) )) ] || fail "cut-$mode: $mark charged ${got:-nothing}, not $(( $(at 4) - $(at 2) )) ns"
	check "before-$mode" $mode "$(at 4),$(( p0 + (p1 - p0) / 2 ))"
	check "two-$mode" $mode "$(at 1),$(at 2) $(at 4),$(at 6)"
	check "reversed-$mode" $mode "$(at 4),$(at 6) $(at 1),$(at 2)" "$(sec "$(at 4)"),$(sec "$(at 6)") $(sec "$(at 1)"),$(sec "$(at 2)")"
	cmp -s "two-$mode.folded" "reversed-$mode.folded" || fail "reversed-$mode: ranges out of order fold otherwise"
	check "one-$mode" $mode "$(at 1),$(at 2)"
	check "other-$mode" $mode "$(at 4),$(at 6)"
	sum=$(( $(ns_of "$mark" "one-$mode.got") + $(ns_of "$mark" "other-$mode.got") ))
	[ "$sum" = "$(ns_of "$mark" "two-$mode.got")" ] ||
		fail "two-$mode: $mark $(ns_of "$mark" "two-$mode.got") ns, not the ranges' sum $sum"
	check "overlap-$mode" $mode "$(at 1),$(at 4) $(at 2),$(at 6)"
	check "union-$mode" $mode "$(at 1),$(at 6)"
	cmp -s "overlap-$mode.got" "union-$mode.got" || fail "overlap-$mode: not the union's profile"
	check "open-$mode" $mode "$(( p0 + (p1 - p0) / 2 )),18446744073709551615" "$(sec $(( p0 + (p1 - p0) / 2 ))),"
done

# the other commands take the same intervals: report's, speedscope's and the graph's totals
want=$(awk '{ t += $2 } END { printf "%.0f\n", t }' before-offcpu.expected)
spec="$(sec "$(at 4)"),$(sec $(( p0 + (p1 - p0) / 2 )))"
"$TEPHRA" report --json -n 0 --off-cpu --time "$spec" oc.data >before.json 2>before.report.err ||
	fail "report --time failed: $(head -n 3 before.report.err)"
got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["total"])' before.json)
[ "$got" = "$want" ] && echo "ok: report --off-cpu --time: total $got ns" ||
	fail "report --off-cpu --time: total $got, the oracle's $want ns"
"$TEPHRA" export -f speedscope -o before.speedscope.json --off-cpu --time "$spec" oc.data 2>before.ss.err ||
	fail "export --time failed: $(head -n 3 before.ss.err)"
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(sum(p["weights"]) for p in d["profiles"]))' before.speedscope.json)
[ "$got" = "$want" ] && echo "ok: export -f speedscope --off-cpu --time: total $got ns" ||
	fail "export -f speedscope --off-cpu --time: total $got, the oracle's $want ns"
"$TEPHRA" flamegraph --off-cpu --time "$spec" -o before.svg oc.data 2>before.fg.err ||
	fail "flamegraph --time failed: $(head -n 3 before.fg.err)"
grep -q "<g o=\"0\" w=\"$want\"><title>all (" before.svg && echo "ok: flamegraph --off-cpu --time: all $want ns" ||
	fail "flamegraph --off-cpu --time: its root is not $want ns wide"

# hostile slices: beyond the recording's end, an empty percentage range
for spec in "$(sec $(( p1 + 1000000000000 ))),$(sec $(( p1 + 2000000000000 )))" "10%-5%"; do
	for opt in --off-cpu --wall; do
		"$TEPHRA" fold -q $opt --time "$spec" oc.data >empty.folded 2>empty.err
		rc=$?
		[ $rc = 0 ] && [ ! -s empty.folded ] && echo "ok: $opt --time '$spec': empty" ||
			fail "$opt --time '$spec': exit $rc, $(wc -l <empty.folded) stacks, $(head -n 2 empty.err)"
	done
done
exit $((failures > 0))
