#!/usr/bin/env bash
# event-select: `--event NAME` on script and fold keeps the samples of the event perf
# script names NAME, and only those.  Oracle: perf script's own text of a recording with
# two events (cpu-clock and the tracepoint sched:sched_switch, with callchains), cut to
# the samples whose header names the event; the fold is collapse.py's reading of that
# text.  A name the recording does not have (bogus, or an event of another recording) is
# an error naming the events it has, with nothing on stdout and exit 1.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1
perf list tracepoint 2>/dev/null | grep -q 'sched:sched_switch' ||
	skip "no tracepoints here (tracefs not mounted?)"

record mix.data -g -e cpu-clock -e sched:sched_switch -- "$WL/forkexec" "$WL/recurse" 100
perf script -i mix.data > all.perf 2>/dev/null || { echo "perf script failed"; exit 1; }

# only_event EVENT < perf script text: the samples (blank-line separated) of EVENT
only_event() {
	awk -v ev="$1" 'BEGIN { RS = ""; ORS = "\n\n" }
		{ split($0, line, "\n"); if (index(line[1], " " ev ": ")) print }'
}

for ev in cpu-clock sched:sched_switch; do
	only_event "$ev" < all.perf > "$ev.perf"
	[ -s "$ev.perf" ] || fail "$ev: perf recorded no sample of it"
	"$TEPHRA" script --event "$ev" mix.data > "$ev.tephra" 2> "$ev.err" ||
		fail "$ev: tephra script --event failed: $(cat "$ev.err")"
	same_bytes "script --event $ev" "$ev.perf" "$ev.tephra"
	python3 "$HERE/collapse.py" < "$ev.perf" > "$ev.folded.expected"
	"$TEPHRA" fold -q --event "$ev" mix.data > "$ev.folded" 2> "$ev.err" ||
		fail "$ev: tephra fold --event failed: $(cat "$ev.err")"
	same_bytes "fold --event $ev" "$ev.folded.expected" "$ev.folded"
done

# unknown names: an error naming the recording's events, nothing folded or printed
for ev in bogus sched:sched_wakeup cpu; do
	for cmd in script fold; do
		if "$TEPHRA" "$cmd" --event "$ev" mix.data > out.txt 2> err.txt; then
			fail "$cmd --event $ev: exit 0 on an event the recording does not have"
		fi
		[ -s out.txt ] && fail "$cmd --event $ev: printed samples: $(head -n 2 out.txt)"
		grep -q "no event '$ev' in the recording; its events: cpu-clock, sched:sched_switch$" err.txt ||
			fail "$cmd --event $ev: unexpected message: $(cat err.txt)"
	done
done

[ "$failures" -eq 0 ]
