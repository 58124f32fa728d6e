# record-modes: the ways users record. Compressed (-z), pipe mode (-o -, read from a real
# pipe), two events at once (the fold keeps the first, --event picks the other), a short
# system-wide (-a) recording with [cpu] columns and kernel stacks, a fixed period (-c),
# and a recording without
# callchains (ip, symbol and dso on the sample line).
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads

# (files recorded with -z and pipe streams carry no build-ids: a [vdso] frame then differs,
# see docs/perf.md; the workloads keep out of the vdso)
record "$TEST_TMP/z.data" -g -z -- "$WL/recurse" 200
check_script zstd "$TEST_TMP/z.data"
check_fold zstd "$TEST_TMP/z.data" "" ""

# Pipe mode: tephra reads the live stream; perf script reads a copy of the same bytes.
perf record -q -N -g -o - -- "$WL/templates" 200 2>/dev/null | tee "$TEST_TMP/pipe.data" |
	"$TEPHRA" fold --compat - >"$TEST_TMP/pipe.fold" 2>"$TEST_TMP/pipe.err" || fail "pipe: tephra fold - failed: $(head -3 "$TEST_TMP/pipe.err")"
perf script -i "$TEST_TMP/pipe.data" 2>/dev/null | python3 "$HERE/collapse.py" >"$TEST_TMP/pipe.expected"
[ -s "$TEST_TMP/pipe.expected" ] || fail "pipe: no stacks expected"
same_bytes "pipe: fold -" "$TEST_TMP/pipe.expected" "$TEST_TMP/pipe.fold"
perf script -i "$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.perf" 2>/dev/null
"$TEPHRA" script - <"$TEST_TMP/pipe.data" >"$TEST_TMP/pipe.tephra" || fail "pipe: tephra script - failed"
same_bytes "pipe: script -" "$TEST_TMP/pipe.perf" "$TEST_TMP/pipe.tephra"

record "$TEST_TMP/two.data" -g -e cpu-clock -e task-clock -- "$WL/recurse" 200
check_script two-events "$TEST_TMP/two.data"
check_fold two-events "$TEST_TMP/two.data" "" ""
# the second event, as stackcollapse-perf.pl --event-filter picks it
check_fold two-events-task "$TEST_TMP/two.data" "" "--event-filter=task-clock" --event task-clock

# -a also records the neighbours' processes, whose binaries may vanish between the perf
# script and tephra runs: symbols are compared on our own processes and the idle task, the
# sample lines of everything.
record "$TEST_TMP/all.data" -g -a -- "$WL/threads" 200
check_script system-wide-lines "$TEST_TMP/all.data" -F comm,tid,cpu,time,period,event
check_script system-wide "$TEST_TMP/all.data" --comms "swapper,threads,worker-a,worker 2"
check_fold system-wide "$TEST_TMP/all.data" "--comms swapper,threads,worker-a,worker\ 2" "" --comms "swapper,threads,worker-a,worker 2"
check_fold system-wide-kernel "$TEST_TMP/all.data" "--comms swapper,threads" "--all" --all --comms swapper,threads
grep -q "^worker-a;" "$TEST_TMP/system-wide.fold" || fail "system-wide: expected stacks of the worker-a thread"

# A fixed period (-c): samples carry no PERIOD, perf prints the attr's period.
record "$TEST_TMP/fixed.data" -g -c 100000 -e cpu-clock -- "$WL/recurse" 150
check_script fixed-period "$TEST_TMP/fixed.data"
check_fold fixed-period "$TEST_TMP/fixed.data" "" ""

record "$TEST_TMP/flat.data" -- "$WL/recurse" 200
check_script no-callchain "$TEST_TMP/flat.data"
# Without callchains stackcollapse-perf.pl folds nothing; tephra folds each sample's ip
# as one frame.  Expected: comm;symbol (or [dso]) summed by period, from the sample lines.
perf script -i "$TEST_TMP/flat.data" -F comm,period,ip,sym,dso 2>/dev/null |
	python3 -c '
import re, sys
sums = {}
for line in sys.stdin:
    m = re.match(r"^\s*(.+?)\s+(\d+)\s+([0-9a-f]+) (.+) \((.*)\)$", line.rstrip("\n"))
    comm, period, sym, dso = m.group(1), int(m.group(2)), m.group(4), m.group(5)
    if sym == "[unknown]":
        sym = "[%s]" % (re.sub(r".*/", "", dso) if dso != "[unknown]" else "unknown")
    key = comm.replace(" ", "_") + ";" + re.sub(r"\((?!anonymous namespace\)).*", "", sym)
    sums[key] = sums.get(key, 0) + (period or 1)
for k in sorted(sums, key=lambda k: k.encode()):
    print("%s %d" % (k, sums[k]))' >"$TEST_TMP/flat.expected"
"$TEPHRA" fold --compat "$TEST_TMP/flat.data" >"$TEST_TMP/flat.fold" || fail "no-callchain: tephra fold failed"
same_bytes "no-callchain: fold" "$TEST_TMP/flat.expected" "$TEST_TMP/flat.fold"
# A tracepoint with callchains next to cpu-clock: the fold takes the tracepoint samples
# as the script does (its header ends with fields, not "event:"); the script prints the
# tracepoint's fields as perf does (more in tracepoints.test.sh).
if perf list tracepoint 2>/dev/null | grep -q 'sched:sched_switch' ||
	partial --part=tracepoints "no sched:sched_switch tracepoint here (tracefs not mounted?): tracepoint fold not checked"; then
	record "$TEST_TMP/tp.data" -g -e sched:sched_switch -e cpu-clock -- "$WL/threads" 100
	check_fold tracepoint "$TEST_TMP/tp.data" "" ""
	check_script tracepoint "$TEST_TMP/tp.data"
fi
finish
