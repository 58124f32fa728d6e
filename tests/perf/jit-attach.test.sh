# jit-attach: code in anonymous executable memory named by /tmp/perf-PID.map (what JITs
# do: perf shows it as that map file, stackcollapse --jit marks it _[j]); and attaching
# to a running process (perf record -p PID), whose maps and comm perf synthesizes.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
if [ "$(uname -m)" = x86_64 ]; then
	record "$TEST_TMP/jit.data" -g -- "$WL/jit" 200
	map=$(grep -o '/tmp/perf-[0-9]*\.map' "$TEST_TMP/record.log" | head -n 1)
	check_script jit "$TEST_TMP/jit.data"
	check_fold jit "$TEST_TMP/jit.data" "" "--jit" --jit
	grep -q 'jitted_spin_loop_\[j\]' "$TEST_TMP/jit.fold" || fail "jit: no jitted_spin_loop_[j] frame"
	[ -n "$map" ] && rm -f "$map"
else
	echo "note: not x86-64, JIT workload not checked"
fi

# The target runs until it is killed, so it is alive for the whole recording however
# long perf takes to attach on a busy machine (it once ended first: perf then fails).
# Attached once it runs recurse (its exec done), and for 200 ms of the target's own CPU
# time (utime+stime, in clock ticks), not wall time that a loaded machine leaves empty.
# (The sleeps pace the looks; the bounds, 2 minutes, only stop a broken run.)
"$WL/recurse" 600000 >/dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null' EXIT
for _ in $(seq 12000); do
	[ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$WL/recurse")" ] && break
	sleep 0.01
done
# The 200 ms counted from inside the command perf runs, which perf starts once its
# events on PID are open: counted from before perf (as it was), a slow attach on a busy
# machine spent them all and the recording had a few samples, none in descend.
ticks_200ms=$(( 20 * $(getconf CLK_TCK) / 100 ))
record "$TEST_TMP/attach.data" -g -p "$pid" -- sh -c \
	"want=\$(( \$(awk '{ print \$14 + \$15 }' /proc/$pid/stat) + $ticks_200ms )); i=0; while [ \$i -lt 1200 ] && [ \$(awk '{ print \$14 + \$15 }' /proc/$pid/stat) -lt \$want ]; do i=\$((i+1)); sleep 0.1; done"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
check_script attach "$TEST_TMP/attach.data"
check_fold attach "$TEST_TMP/attach.data" "" ""
grep -q '^recurse;.*descend' "$TEST_TMP/attach.fold" || fail "attach: no recurse;...;descend stacks"
finish
