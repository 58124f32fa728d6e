#!/usr/bin/env bash
# offcpu hostile: recordings that do not close every interval, checked against what
# oracle.py works out of `perf script`'s text of the same file: a thread still asleep
# when perf stops (charged to the end, with a warning), switches without context-switch
# records (intervals ended by next_pid or the thread's next sample); recordings without
# sched_switch samples (switch records alone) refused clearly; the same file cut short
# (no crash, the ASan build too).  Time running backwards and the rest are in
# tests/unit/offcpu_switches.c (a real recording cannot have them).
. "$TOP/tests/offcpu/lib.sh"
script() {
	perf script -i "$1" --ns --show-switch-events --show-task-events --show-mmap-events \
		-F comm,tid,time,event,trace,period,ip,sym 2>/dev/null
}

# a thread that never switches back in, by construction: a background subshell says it
# runs (end.ready) and blocks opening a FIFO (end.hold) nobody opens while perf runs; sh
# (the recorded command) exits once /proc shows it asleep (S), and perf stops.  It is
# released afterwards.  (Was `sleep 3 & sleep 0.3`: both wall times.)
mkfifo end.ready end.hold
record end.data -e sched:sched_switch --switch-events --call-graph dwarf -- sh -c \
	'{ echo >end.ready; read x <end.hold; } & read y <end.ready
	 i=0; while [ $i -lt 100000 ] && [ "$(cut -d" " -f3 /proc/$!/stat)" != S ]; do i=$((i+1)); done'
exec 3<>end.hold
exec 3>&-
script end.data | python3 "$TOP/tests/offcpu/oracle.py" offcpu - >end.expected
"$TEPHRA" fold -q --off-cpu end.data >end.folded 2>end.err || fail "end: tephra fold failed: $(head -n 3 end.err)"
{ python3 "$TOP/tests/offcpu/by_marker.py" - <end.folded
  if grep -q '^1 thread(s) still off the CPU at the end of the recording: charged up to its end$' end.err
  then echo "at_end 1"; else echo "at_end (no warning)"; fi
} >end.got
same_bytes "end: ns, warning" end.expected end.got
grep -q '^at_end 1$' end.expected || fail "end: perf's text has no thread asleep at the end"

# no context-switch records: the sched_switch samples alone (next_pid) and samples
record noswitch.data -e sched:sched_switch -e cpu-clock --call-graph dwarf -- "$WL/offcpu"
M=wait_sleep,wait_pipe,wait_mutex,spin,pipe_writer,mutex_holder
for mode in offcpu wall; do
	opt=--off-cpu; [ $mode = wall ] && opt=--wall
	script noswitch.data | python3 "$TOP/tests/offcpu/oracle.py" $mode $M | grep -v '^at_end' >noswitch-$mode.expected
	"$TEPHRA" fold -q $opt noswitch.data 2>noswitch.err | python3 "$TOP/tests/offcpu/by_marker.py" $M >noswitch-$mode.got
	same_bytes "noswitch $mode: ns per wait" noswitch-$mode.expected noswitch-$mode.got
done

# switch records without sched_switch samples: a clear error, nothing folded
record switches.data -e cpu-clock --switch-events -- "$WL/offcpu"
for opt in --off-cpu --wall; do
	"$TEPHRA" fold $opt switches.data >switches.out 2>switches.err
	rc=$?
	[ $rc = 1 ] || fail "switches $opt: exit $rc, want 1"
	grep -q "no sched:sched_switch event in the recording: record with \`tephra record --off-cpu\`" switches.err ||
		fail "switches $opt: unclear error: $(head -n 2 switches.err)"
	[ -s switches.out ] && fail "switches $opt: folded something"
done
# sched_switch but no clock event: --wall refused, --off-cpu works
record noclock.data -e sched:sched_switch --switch-events -g -- "$WL/offcpu"
"$TEPHRA" fold --wall noclock.data >/dev/null 2>noclock.err && fail "noclock: --wall without a clock event folded"
grep -q -- "--wall needs on-CPU samples of cpu-clock or task-clock" noclock.err || fail "noclock: unclear error"
"$TEPHRA" fold -q --off-cpu noclock.data >noclock.folded || fail "noclock: --off-cpu failed"
grep -q 'wait_sleep' noclock.folded || fail "noclock: no wait_sleep stack"

# the recording cut short: whatever was read is folded, never a crash
size=$(stat -c %s end.data)
for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	for cut in $((size / 3)) $((size * 2 / 3)); do
		head -c $cut end.data >cut.data
		"$bin" fold -q --off-cpu cut.data >/dev/null 2>cut.err
		rc=$?
		[ $rc -le 1 ] || { fail "cut at $cut ($bin): exit $rc"; head -n 5 cut.err; }
	done
done
exit $((failures > 0))
