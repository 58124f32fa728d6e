# script-options: perf script's options on the same recordings, each compared byte for
# byte with perf script given the same options: -F field lists (replace, +add, -remove),
# --ns, --max-stack, --pid/--tid/--comms filters, the default ./perf.data; and the fold's
# --pid/--tid roots and --addrs/--kernel/--jit naming against the collapse of the text.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
record "$TEST_TMP/threads.data" -g -- "$WL/threads" 150
record "$TEST_TMP/fork.data" -g -- "$WL/forkexec" "$WL/recurse" 100
record "$TEST_TMP/flat.data" -- "$WL/threads" 100
T=$TEST_TMP/threads.data
check_script fields-all "$T" -F comm,tid,pid,time,event,ip,sym,dso,symoff,period
check_script fields-few "$T" -F pid,time,ip,sym
check_script fields-ip "$T" -F comm,tid,ip
check_script fields-dso "$T" -F tid,ip,dso
check_script fields-add "$T" -F +pid
check_script fields-remove "$T" -F -period
check_script fields-no-ip "$T" -F -ip
check_script fields-sym-only "$T" -F comm,sym,dso
check_script fields-flat "$TEST_TMP/flat.data" -F comm,pid,tid,time,ip,sym,dso
check_script ns "$T" --ns
check_script max-stack "$T" --max-stack 3
tid=$(perf script -i "$T" -F tid 2>/dev/null | sed -n '5{s/ //g;p}')
check_script tid-filter "$T" --tid "$tid"
pid=$(perf script -i "$TEST_TMP/fork.data" -F pid 2>/dev/null | tail -n 1 | tr -d ' ')
check_script pid-filter "$TEST_TMP/fork.data" --pid "$pid"
check_script comms-filter "$T" --comms "worker 2,worker-a"
check_script comms-filter-fork "$TEST_TMP/fork.data" --comms recurse
# a filter given twice: the last one counts, as in perf, and the first is freed (the ASan
# build's leak check failed both commands before)
asan=$TEPHRA_ASAN
[ -x "$asan" ] || { partial "no ASan build (make asan): leaks of repeated filters not checked"; asan=$TEPHRA; }
tids=$(perf script -i "$T" -F tid 2>/dev/null | tr -d ' ' | sort -u | paste -sd,)
TEPHRA_BIN=$asan check_script filters-twice "$T" --comms worker-a --comms "worker 2,worker-a" --tid 1 --tid "$tids"

# a field the recording lacks is an error, as in perf
if "$TEPHRA" script -i "$T" -F cpu >/dev/null 2>"$TEST_TMP/cpu.err"; then
	fail "-F cpu on a recording without CPU must fail"
else
	grep -q "do not have CPU attribute set" "$TEST_TMP/cpu.err" || fail "-F cpu: unexpected message: $(cat "$TEST_TMP/cpu.err")"
fi

# with no file argument both commands read ./perf.data, as perf does
(cd "$TEST_TMP" && cp threads.data perf.data && "$TEPHRA" script >default.tephra && perf script >default.perf 2>/dev/null)
same_bytes "default ./perf.data" "$TEST_TMP/default.perf" "$TEST_TMP/default.tephra"

check_fold fold-pid "$T" "-F +pid" "--pid" --pid
check_fold fold-tid "$T" "-F +pid" "--tid" --tid
check_fold fold-addrs "$TEST_TMP/fork.data" "" "--addrs" --addrs
check_fold fold-all "$TEST_TMP/fork.data" "" "--all" --all
check_fold fold-max-stack "$T" "--max-stack 4" "" --max-stack 4
check_fold fold-comms "$T" "--comms worker-a" "" --comms worker-a
TEPHRA_BIN=$asan check_fold fold-filters-twice "$T" "--comms worker-a --tid $tids" "" --comms "worker 2" --comms worker-a --only-tid 1 --only-tid "$tids"
# --weight samples: every sample counts 1 (the collapse of a text whose periods are hidden)
check_fold fold-samples "$T" "-F comm,tid,time,event,ip,sym,symoff,dso" "" --weight samples
finish
