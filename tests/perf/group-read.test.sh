#!/usr/bin/env bash
# group-read: event groups sampled through the leader (`-e '{a,b,c}:S'`: PERF_SAMPLE_READ
# with PERF_FORMAT_GROUP) and groups whose members sample themselves (`{a,b}`), printed
# and folded as perf makes them: one sample per member whose counter grew, weighted by
# its increase since that counter's last read, under the member's own event name.
# Oracle: perf script's text (byte for byte) and collapse.py's fold of it, per event.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1

record leader.data -g -e '{cpu-clock,task-clock,page-faults}:S' -- "$WL/forkexec" "$WL/recurse" 100
check_script leader leader.data
check_fold leader leader.data "" ""
for ev in task-clock page-faults; do
	check_fold "leader-$ev" leader.data "" "--event-filter=$ev" --event "$ev"
done
grep -q ' page-faults: ' "$TEST_TMP/leader.perf" || fail "leader: perf printed no page-faults member"

record members.data -g -e '{cpu-clock,task-clock}' -- "$WL/recurse" 100
check_script members members.data
check_fold members-task members.data "" "--event-filter=task-clock" --event task-clock

[ "$failures" -eq 0 ]
