#!/usr/bin/env bash
# offcpu record: `tephra record --wall` / `--off-cpu` runs perf with what off-CPU
# profiles need (sched:sched_switch with DWARF call graphs, context-switch records,
# cpu-clock): perf's own tools see those events and records in the file; the graph's
# numbers are tephra fold's (--folded), the waits drawn under a blue "[off-cpu: S]"
# leaf, times in ms; --off-cpu's graph is blue.  As an unprivileged user (perf_event_paranoid
# above -1) it stops before running anything, saying what it needs.
. "$TOP/tests/offcpu/lib.sh"

"$TEPHRA" record --wall -d w.data -o w.svg --folded w.folded -- "$WL/offcpu" >record.out 2>record.err ||
	{ fail "tephra record --wall failed: $(tail -n 3 record.err)"; exit 1; }
grep -q -- '-e cpu-clock/freq=999,name=cpu-clock/ -e sched:sched_switch -c 1 --switch-events --call-graph dwarf' record.err ||
	fail "record: perf was not asked for switches with DWARF call graphs: $(head -n 1 record.err)"
perf evlist -i w.data >evlist.txt 2>/dev/null
for ev in cpu-clock sched:sched_switch; do
	grep -q "^$ev" evlist.txt || fail "record: perf evlist shows no $ev: $(tr '\n' ' ' <evlist.txt)"
done
perf script -i w.data --show-switch-events -F comm,tid,time,event 2>/dev/null | grep -q 'PERF_RECORD_SWITCH IN' ||
	fail "record: no context-switch records in the file"
"$TEPHRA" fold -q --wall w.data >fold.txt
M=wait_sleep,wait_pipe,wait_mutex,spin
python3 "$TOP/tests/offcpu/by_marker.py" $M <fold.txt >fold.got
python3 "$TOP/tests/offcpu/by_marker.py" $M <w.folded >graph.got
same_bytes "record: the graph's waits are fold --wall's" fold.got graph.got
# the waits' leaf: blue (more blue than red and green), its time in ms
python3 - w.svg <<'PY' || fail "record: the [off-cpu: S] leaf is not drawn blue with a time"
import re, sys
svg = open(sys.argv[1]).read()
leaves = re.findall(r'<title>\[off-cpu: S\] \(([0-9.]+ m?s), [^<]*</title><rect [^>]*fill="#(..)(..)(..)"', svg)
print("leaves:", leaves[:3])
ok = bool(leaves) and all(int(b, 16) > int(r, 16) and int(b, 16) > int(g, 16) for _, r, g, b in leaves)
sys.exit(0 if ok else 1)
PY
"$TEPHRA" flamegraph --off-cpu w.data -o off.svg 2>/dev/null || fail "flamegraph --off-cpu failed"
python3 - off.svg <<'PY' || fail "flamegraph --off-cpu: not blue"
import re, sys
fills = re.findall(r'fill="#(..)(..)(..)"', open(sys.argv[1]).read())
sys.exit(0 if fills and all(int(b, 16) >= max(int(r, 16), int(g, 16)) for r, g, b in fills) else 1)
PY
# every wait fold --off-cpu has is drawn (a wait whose sched_switch sample the kernel
# did not write has no stack anywhere: tests/offcpu/offcpu)
"$TEPHRA" fold -q --off-cpu w.data | python3 "$TOP/tests/offcpu/by_marker.py" $M >off.got
# (frames under --minwidth are not drawn: only waits of 1% of the graph or more are looked for)
big() { awk '{ w[$1] = $2; t += $2 } END { for (f in w) if (f != "other" && w[f] >= t / 100) print f }' off.got; }
big | grep -q . || fail "fold --off-cpu: no wait at all"
for f in $(big); do
	grep -q "<title>$f " off.svg || fail "flamegraph --off-cpu: no $f frame, which fold --off-cpu has"
done

# unprivileged: refused before perf runs, saying what it needs
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if [ "$(id -u)" = 0 ] && want_tool setpriv "the unprivileged refusal" util-linux && [ "$paranoid" -gt -1 ]; then
	mkdir -m 777 np && cd np || exit 1
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TEPHRA" record --off-cpu -- true \
		>out.txt 2>err.txt
	rc=$?
	[ $rc = 1 ] || fail "unprivileged: exit $rc, want 1"
	grep -q "takes root, or kernel.perf_event_paranoid=-1 (now $paranoid" err.txt ||
		fail "unprivileged: unclear error: $(cat err.txt)"
	grep -q 'running perf' err.txt && fail "unprivileged: perf was run"
	cd .. || exit 1
else
	echo "unprivileged case not run (needs root, setpriv and perf_event_paranoid > -1)"
fi
exit $((failures > 0))
