# fp-workloads: frame-pointer recordings (perf record -g) of every bundled workload:
# C recursion into libc, C++ templates/exceptions, two named threads, fork+exec, Rust.
# tephra script must equal perf script byte for byte; tephra fold must equal the
# collapse of perf script's text.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
record "$TEST_TMP/recurse.data" -g -- "$WL/recurse" 300
check_script recurse "$TEST_TMP/recurse.data"
check_fold recurse "$TEST_TMP/recurse.data" "" ""
record "$TEST_TMP/templates.data" -g -- "$WL/templates" 300
check_script templates "$TEST_TMP/templates.data"
# the premise: the anonymous-namespace function is in perf's stacks (templates.cpp: ~10%)
grep -q '(anonymous namespace)::may_throw' "$TEST_TMP/templates.perf" ||
	fail "templates: perf script shows no (anonymous namespace)::may_throw frame"
check_fold templates "$TEST_TMP/templates.data" "" ""
record "$TEST_TMP/threads.data" -g -- "$WL/threads" 200
check_script threads "$TEST_TMP/threads.data"
check_fold threads "$TEST_TMP/threads.data" "" ""
grep -q '^worker-a;' "$TEST_TMP/threads.fold" || fail "threads: no stack rooted at the thread comm 'worker-a'"
record "$TEST_TMP/forkexec.data" -g -- "$WL/forkexec" "$WL/recurse" 150
check_script forkexec "$TEST_TMP/forkexec.data"
check_fold forkexec "$TEST_TMP/forkexec.data" "" ""
grep -q '^forkexec;.*child_before_exec' "$TEST_TMP/forkexec.fold" || fail "forkexec: the child's pre-exec frames are missing"
if [ -x "$WL/spin" ] || partial "rustc absent (tests/workloads/build.sh): the Rust workload not checked"; then
	record "$TEST_TMP/spin.data" -g -- "$WL/spin" 200
	check_script rust "$TEST_TMP/spin.data"
	check_fold rust "$TEST_TMP/spin.data" "" ""
fi
finish
