# tests/offcpu/lib.sh - shared by the tests/offcpu scripts (sourced): tests/perf/lib.sh's
# helpers, the workloads built, the scratch directory entered, and a skip when this
# machine has no sched:sched_switch tracepoint.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1
perf list tracepoint 2>/dev/null | grep -q 'sched:sched_switch' ||
	skip "no sched:sched_switch tracepoint here (tracefs not mounted?)"

# record_offcpu_workload: tests/workloads/offcpu recorded into oc.data (scheduler switches
# with DWARF call graphs, cpu-clock samples, switch events), and perf script's text of it,
# the oracles' input, in oc.txt.  M: the workload's markers.  Without loss by
# construction: the whole recording (~19 MB) fits in one CPU's ring buffer (-m 64M), so a
# perf starved by load loses nothing (with the default buffer it lost sched_switch
# samples, and time-slice.test.sh found fewer than two waits); a loss fails.
M=wait_sleep,wait_pipe,wait_mutex,spin,pipe_writer,mutex_holder
record_offcpu_workload() {
	record oc.data -m 64M -e sched:sched_switch -e cpu-clock --switch-events --call-graph dwarf -- "$WL/offcpu"
	local lost
	lost=$(perf report -i oc.data --stats 2>/dev/null | grep -E '^ *LOST(_SAMPLES)? events:' | head -n 3)
	[ -z "$lost" ] || { echo "FAIL: oc.data lost records with a 64 MB buffer: $lost"; exit 1; }
	perf script -i oc.data --ns --show-switch-events --show-task-events --show-mmap-events \
		-F comm,tid,time,event,trace,period,ip,sym >oc.txt 2>/dev/null ||
		{ echo "perf script failed"; exit 1; }
}
