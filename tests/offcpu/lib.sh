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
# the oracles' input, in oc.txt.  M: the workload's markers.
M=wait_sleep,wait_pipe,wait_mutex,spin,pipe_writer,mutex_holder
record_offcpu_workload() {
	record oc.data -e sched:sched_switch -e cpu-clock --switch-events --call-graph dwarf -- "$WL/offcpu"
	perf script -i oc.data --ns --show-switch-events --show-task-events --show-mmap-events \
		-F comm,tid,time,event,trace,period,ip,sym >oc.txt 2>/dev/null ||
		{ echo "perf script failed"; exit 1; }
}
