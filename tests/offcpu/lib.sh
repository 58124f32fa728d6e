# tests/offcpu/lib.sh - shared by the tests/offcpu scripts (sourced): tests/perf/lib.sh's
# helpers, the workloads built, the scratch directory entered, and a skip when this
# machine has no sched:sched_switch tracepoint.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1
perf list tracepoint 2>/dev/null | grep -q 'sched:sched_switch' ||
	skip "no sched:sched_switch tracepoint here (tracefs not mounted?)"
