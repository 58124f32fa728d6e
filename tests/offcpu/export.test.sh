#!/usr/bin/env bash
# offcpu/export: `tephra export` and `tephra report` with --off-cpu and --wall, on a real
# program recorded with the machine's perf (sched:sched_switch with DWARF call graphs,
# context-switch records, cpu-clock; the workload of offcpu.test.sh).  `tephra fold
# --off-cpu`/`--wall` of the same file is the oracle here: offcpu.test.sh checks it wait
# by wait against what `perf script` prints.
#  - pprof, read back by Go's pprof (`go tool pprof -traces`): the stacks and
#    nanoseconds are fold's (the "[off-cpu: STATE]" leaf of --wall a frame of its own),
#    the sample type off-cpu/nanoseconds or wall/nanoseconds (-raw);
#  - report --json: its total is fold's, in nanoseconds;
#  - callgrind, read by callgrind_annotate: its PROGRAM TOTALS is fold's total, in ns
#    (not tests/export/callgrind_check.py's per-name inclusive costs: these stacks hold
#    libc's futex_wait and the kernel's, two functions callgrind_annotate adds up);
#  - speedscope: per thread, the weights of its intervals (each at its switch-out) and
#    --wall's clock samples in time order, as tests/offcpu/oracle.py works them out of
#    perf script's text, and fold --only-tid's stacks (tests/export/speedscope_check.py);
#  - the recording cut short: no crash (the ASan build too);
#  - the options' checks: --preempted alone, --off-cpu with --wall, folded text.
. "$TOP/tests/offcpu/lib.sh"
X=$TOP/tests/export
resum() { awk '{ n = $NF; k = substr($0, 1, length($0) - length(n) - 1); s[k] += n }
	END { for (k in s) printf "%s %.0f\n", k, s[k] }'; }

record oc.data -e sched:sched_switch -e cpu-clock --switch-events --call-graph dwarf -- "$WL/offcpu"

for opt in --off-cpu --wall "--wall --preempted"; do
	name=$(tr -d ' -' <<<"$opt")
	"$TEPHRA" fold -q $opt oc.data 2>/dev/null | resum | sort >"$name.folded"
	[ -s "$name.folded" ] || { fail "$name: tephra fold folded nothing"; continue; }
	total=$(awk '{ t += $NF } END { printf "%.0f\n", t }' "$name.folded")

	if want_tool go "$name: pprof" "Debian: golang-go"; then
		"$TEPHRA" export -f pprof -o "$name.pb.gz" $opt oc.data 2>"$name.pprof.err" ||
			{ fail "$name: tephra export -f pprof failed: $(head -n 3 "$name.pprof.err")"; continue; }
		go tool pprof -traces -unit=ns "$name.pb.gz" 2>"$name.go.err" |
			python3 "$X/pprof_traces.py" --root comm | sort >"$name.pprof"
		same_bytes "$name: pprof -traces" "$name.folded" "$name.pprof"
		kind=off-cpu
		[[ $opt == --wall* ]] && kind=wall
		go tool pprof -raw "$name.pb.gz" 2>/dev/null >"$name.raw"
		grep -q "^samples/count $kind/nanoseconds\[dflt\]" "$name.raw" ||
			fail "$name: sample types are not samples/count, $kind/nanoseconds: $(grep -A1 '^Samples' "$name.raw" | tail -n 1)"
	fi

	"$TEPHRA" report --json -n 0 $opt oc.data >"$name.json" 2>"$name.report.err" ||
		{ fail "$name: tephra report failed: $(head -n 3 "$name.report.err")"; continue; }
	got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["total"], d["unit"])' "$name.json")
	[ "$got" = "$total nanoseconds" ] && echo "ok: $name: report total $got" ||
		fail "$name: report total is '$got', fold's $total nanoseconds"

	if want_tool callgrind_annotate "$name: callgrind" "Debian: valgrind"; then
		"$TEPHRA" export -f callgrind -o "$name.cg" $opt oc.data 2>"$name.cg.err" ||
			{ fail "$name: tephra export -f callgrind failed: $(head -n 3 "$name.cg.err")"; continue; }
		callgrind_annotate --inclusive=yes --threshold=100 "$name.cg" >"$name.ann" 2>"$name.ann.err" ||
			{ fail "$name: callgrind_annotate failed: $(head -n 3 "$name.ann.err")"; continue; }
		grep -q WARNING "$name.ann.err" && fail "$name: callgrind_annotate warns: $(head -n 3 "$name.ann.err")"
		got=$(sed -n 's/^\([0-9,]*\) (100.0%)  *PROGRAM TOTALS.*/\1/p' "$name.ann" | tr -d ,)
		[ "$got" = "$total" ] && echo "ok: $name: callgrind_annotate total $got ns" ||
			fail "$name: callgrind_annotate's PROGRAM TOTALS is '$got', fold's $total"
		grep -q '^events: ns$' "$name.cg" || fail "$name: callgrind events are not ns"
	else
		echo "not checked: callgrind (callgrind_annotate is not installed; Debian: valgrind)"
	fi
done
grep -q ';\[off-cpu: S\] ' wall.folded || fail "wall: no [off-cpu: S] leaf frame to check"

# speedscope: per thread, one sample per interval at its switch-out (and --wall's clock
# samples), in time order, as oracle.py works them out of perf script's text; the
# stacks those of `tephra fold --only-tid` (tests/export/speedscope_check.py)
perf script -i oc.data --ns --show-switch-events --show-task-events --show-mmap-events \
	-F comm,tid,time,event,trace,period,ip,sym >oc.txt 2>/dev/null ||
	{ echo "perf script failed"; exit 1; }
for mode in offcpu wall; do
	opt=--off-cpu
	[ $mode = wall ] && opt=--wall
	dir=$mode.threads
	mkdir -p "$dir"
	python3 "$TOP/tests/offcpu/oracle.py" "$mode" x "$dir" <oc.txt >/dev/null
	"$TEPHRA" export -f speedscope -o "$mode.speedscope.json" $opt oc.data 2>"$mode.ss.err" ||
		{ fail "$mode: tephra export -f speedscope failed: $(head -n 3 "$mode.ss.err")"; continue; }
	for f in "$dir"/*.periods; do
		tid=$(basename "$f" .periods)
		perf script -i oc.data -F comm,pid,tid --tid "$tid" 2>/dev/null | tail -n 1 |
			sed -E 's/^ *(.*[^ ]) +([0-9]+)\/([0-9]+) *$/\1 (\2\/\3)/' >"$dir/$tid.name"
		"$TEPHRA" fold -q $opt --only-tid "$tid" oc.data 2>/dev/null | cut -d';' -f2- >"$dir/$tid.folded"
	done
	if out=$(python3 "$X/speedscope_check.py" "$mode.speedscope.json" "$dir"); then
		echo "ok: $mode: speedscope: $out"
	else
		fail "$mode: speedscope:"; echo "$out"
	fi
done

# the recording cut short: whatever was read is exported, never a crash (ASan too)
size=$(stat -c %s oc.data)
for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	for cut in $((size / 3)) $((size * 2 / 3)); do
		head -c $cut oc.data >cut.data
		for args in "export -f speedscope -o cut.json --wall" "export -f pprof -o cut.pb.gz --off-cpu" \
			"report --wall"; do
			"$bin" $args cut.data >/dev/null 2>cut.err
			rc=$?
			[ $rc -le 1 ] || { fail "cut at $cut, $args ($bin): exit $rc"; head -n 5 cut.err; }
			grep -q 'Sanitizer\|runtime error' cut.err &&
				{ fail "cut at $cut, $args ($bin): a sanitizer report"; head -n 5 cut.err; }
		done
	done
done

# the options go together as fold's do; folded text has no switches
expect_fail() {
	local why=$1; shift
	if "$TEPHRA" "$@" >/dev/null 2>err.txt; then
		fail "$why: tephra $* succeeded"
	elif ! grep -q . err.txt; then
		fail "$why: tephra $* failed without saying why"
	fi
}
expect_fail "--preempted alone" export -f pprof -o x.pb.gz --preempted oc.data
expect_fail "--off-cpu with --wall" report --off-cpu --wall oc.data
printf 'main;f 5\n' >t.folded
expect_fail "folded text" report --off-cpu t.folded
expect_fail "folded text on stdin" export -f pprof -o x.pb.gz --wall - <t.folded
finish
