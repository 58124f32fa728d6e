#!/usr/bin/env bash
# offcpu every-switch: `tephra record --off-cpu` records every scheduler switch.  Its -F
# once applied to sched:sched_switch too (perf samples a tracepoint by frequency then,
# skipping switches at random): a wait of tests/workloads/lockwait (40 lock calls, each
# made while a helper holds the mutex 10 ms, the time inside measured by the program)
# was charged 11-50% of its time (8 runs).  Now, in every run, the waits charged under wait_lock
# are >= 90% of what the program measured, and perf's own header of the recording says
# the tracepoint's period is 1 and the clock's frequency 999.  `fold --off-cpu` warns
# when a recording sampled sched_switch by frequency or with a period above 1 (recorded
# by hand with perf), and not when every switch was recorded.
. "$TOP/tests/offcpu/lib.sh"

for run in 1 2 3; do
	"$TEPHRA" record -q --off-cpu -d lw$run.data -o lw$run.svg --folded lw$run.folded \
		-- "$WL/lockwait" >lw$run.out 2>lw$run.err ||
		{ fail "run $run: tephra record --off-cpu failed: $(tail -n 3 lw$run.err)"; continue; }
	measured=$(awk '$1 == "waited" { print $2 }' lw$run.out)
	charged=$(awk '/;wait_lock;/ { s += $NF } END { printf "%.0f", s }' lw$run.folded)
	[ -n "$measured" ] && [ "$measured" -gt 0 ] || { fail "run $run: the program measured no wait"; continue; }
	echo "run $run: measured $measured ns in the lock calls, charged $charged ns"
	[ $((charged * 10)) -ge $((measured * 9)) ] ||
		fail "run $run: charged $charged ns under wait_lock, < 90% of the $measured ns measured"
done
# perf's view of what was recorded
perf evlist -v -i lw1.data >evlist.txt 2>/dev/null
grep '^sched:sched_switch:' evlist.txt | grep -q 'sample_freq }: 1,' ||
	fail "sched_switch not sampled at period 1: $(grep sched_switch evlist.txt)"
grep '^sched:sched_switch:' evlist.txt | grep -q 'freq: 1' &&
	fail "sched_switch sampled by frequency: $(grep sched_switch evlist.txt)"
grep '^cpu-clock:' evlist.txt | grep -q 'sample_freq }: 999,.* freq: 1' ||
	fail "the clock is not sampled at 999 Hz: $(grep cpu-clock evlist.txt)"

# -e and -F given: the clock keeps its modifiers and gets the frequency as a term
"$TEPHRA" record -q --off-cpu -e cpu-clock:u -F 500 -d u.data -o u.svg -- "$WL/lockwait" >/dev/null 2>u.err ||
	fail "record --off-cpu -e cpu-clock:u -F 500 failed: $(tail -n 3 u.err)"
perf evlist -v -i u.data >evlist-u.txt 2>/dev/null
grep '^cpu-clock:' evlist-u.txt | grep -q 'sample_freq }: 500,.*exclude_kernel: 1.* freq: 1' ||
	fail "-e cpu-clock:u -F 500: $(grep cpu-clock evlist-u.txt)"
grep '^sched:sched_switch:' evlist-u.txt | grep -q 'sample_freq }: 1,' ||
	fail "-e cpu-clock:u: sched_switch not at period 1: $(grep sched_switch evlist-u.txt)"
"$TEPHRA" record -q --off-cpu -e 'odd/event' -d odd.data -o odd.svg -- true >/dev/null 2>odd.err
rc=$?
[ $rc = 2 ] && grep -q 'EVENT/freq=N/' odd.err || fail "-e odd/event: exit $rc, $(cat odd.err)"

# the warning, on recordings made by hand
warns() { grep -q 'sched:sched_switch was sampled .*not at every switch.*-c 1' "$1"; }
record f.data -e cpu-clock -F 999 -e sched:sched_switch --switch-events -g -- "$WL/lockwait"
record c2.data -e sched:sched_switch -c 2 --switch-events -g -- "$WL/lockwait"
record c1.data -e cpu-clock/freq=999/ -e sched:sched_switch -c 1 --switch-events -g -- "$WL/lockwait"
for opt in --off-cpu --wall; do
	"$TEPHRA" fold -q $opt f.data >/dev/null 2>f.err || fail "fold $opt f.data failed"
	warns f.err && grep -q 'at a frequency of 999' f.err || fail "fold $opt: no warning for -F 999: $(cat f.err)"
	"$TEPHRA" fold -q $opt c1.data >/dev/null 2>c1.err || fail "fold $opt c1.data failed"
	warns c1.err && fail "fold $opt: a warning for -c 1: $(cat c1.err)"
done
"$TEPHRA" fold -q --off-cpu c2.data >/dev/null 2>c2.err || fail "fold --off-cpu c2.data failed"
warns c2.err && grep -q 'with a period of 2' c2.err || fail "no warning for -c 2: $(cat c2.err)"
exit $((failures > 0))
