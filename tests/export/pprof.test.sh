#!/usr/bin/env bash
# tephra export -f pprof, read back by Go's pprof (`go tool pprof`, Debian golang-go):
# on recordings made here with the machine's perf (cpu-clock; frame pointers, and
# --call-graph dwarf on a program whose hot loop is two inlined functions deep), the
# stacks and weights pprof prints (-traces) equal `tephra fold`'s lines (itself checked
# against perf script + stackcollapse-perf.pl in tests/perf and tests/fold-dwarf):
#  - the thread label (comm) in place of fold's comm root;
#  - a multi-threaded workload: per thread, pprof's samples labelled tid T are
#    `tephra fold --only-tid T`'s stacks (without fold's root: it roots "worker 2" as
#    the stackcollapse-perf.pl regex reads it, "worker"), and their thread/pid labels
#    are the comms (a thread renames itself) and pid perf script prints for T;
#  - the sample counts (-sample_index=samples) sum to the number of samples perf
#    script prints;
#  - DWARF: the inlined functions are Line entries of one Location (pprof prints them
#    "(inline)"), and the hot loop's Location names the source line marked HOT LINE;
#  - --inline on a frame-pointer recording: fold --inline's stacks without the _[i]
#    marks (the inline chain is in the Lines);
#  - the samples are grouped by thread and sorted by their locations root first;
#  - --granularity=functions (threads, DWARF): the same stacks and weights, with one
#    Location per inline chain of functions (address 0, no line numbers, none alike) and
#    one Sample per stack and thread (tests/export/pprof_functions.py); a bad value, or
#    the option with another format, is an error;
#  - the ASan build writes the same file without a report.
. "$TOP/tests/perf/lib.sh"
need_perf
command -v go >/dev/null 2>&1 || skip "go is not installed (Debian: golang-go; scripts/install-deps test)"
build_workloads
X=$TOP/tests/export
# folded lines on stdin with equal stacks summed (after a root was cut off)
resum() { awk '{ n = $NF; k = substr($0, 1, length($0) - length(n) - 1); s[k] += n }
	END { for (k in s) printf "%s %.0f\n", k, s[k] }'; }

# pprof_vs_fold NAME DATA ROOT [EXPORT/FOLD OPTIONS...]: ROOT comm or none
pprof_vs_fold() {
	local name=$1 data=$2 root=$3; shift 3
	local strip_root=cat
	[ "$root" = none ] && strip_root="cut -d; -f2-"
	"$TEPHRA" fold -q "$@" "$data" | sed -e 's/_\[i\]//g' | $strip_root | resum | sort >"$TEST_TMP/$name.expected"
	# shellcheck disable=SC2086
	"$TEPHRA" export -f pprof ${EXPORT_OPTS:-} -o "$TEST_TMP/$name.pb.gz" "$@" "$data" 2>"$TEST_TMP/$name.err" ||
		{ fail "$name: tephra export failed: $(head -n 3 "$TEST_TMP/$name.err")"; return; }
	go tool pprof -traces -unit=ns "$TEST_TMP/$name.pb.gz" 2>"$TEST_TMP/$name.go.err" |
		python3 "$X/pprof_traces.py" --root "$root" | sort >"$TEST_TMP/$name.got"
	[ -s "$TEST_TMP/$name.got" ] || { fail "$name: go tool pprof read nothing: $(head -n 3 "$TEST_TMP/$name.go.err")"; return; }
	same_bytes "$name: pprof -traces" "$TEST_TMP/$name.expected" "$TEST_TMP/$name.got"
	local samples got_samples
	samples=$(perf script -i "$data" -F period 2>/dev/null | grep -c .)
	got_samples=$(go tool pprof -traces -sample_index=samples "$TEST_TMP/$name.pb.gz" 2>/dev/null |
		python3 "$X/pprof_traces.py" --root none | awk '{ s += $NF } END { print s + 0 }')
	if [ -z "${FILTERED:-}" ]; then
		[ "$samples" = "$got_samples" ] && echo "ok: $name: $samples samples" ||
			fail "$name: pprof counts $got_samples samples, perf script prints $samples"
	fi
}

record "$TEST_TMP/fp.data" -e cpu-clock -F 4000 -g -- "$WL/recurse"
pprof_vs_fold fp "$TEST_TMP/fp.data" comm
go tool pprof -raw "$TEST_TMP/fp.pb.gz" 2>/dev/null >"$TEST_TMP/fp.raw"
grep -q '^samples/count cpu/nanoseconds\[dflt\]' "$TEST_TMP/fp.raw" ||
	fail "fp: sample types are not samples/count, cpu/nanoseconds: $(grep -A1 '^Samples' "$TEST_TMP/fp.raw" | tail -n 1)"
grep -q '^PeriodType: cpu nanoseconds' "$TEST_TMP/fp.raw" || fail "fp: no cpu/nanoseconds period type"
grep -Eq "^[0-9]+: .* $WL/recurse [0-9a-f]{40} \[FN\]" "$TEST_TMP/fp.raw" ||
	fail "fp: no mapping for $WL/recurse with its build-id: $(grep -A3 '^Mappings' "$TEST_TMP/fp.raw")"
pprof_vs_fold fp-inline "$TEST_TMP/fp.data" comm --inline

record "$TEST_TMP/threads.data" -e cpu-clock -F 4000 -g -- "$WL/threads"
pprof_vs_fold threads "$TEST_TMP/threads.data" none
tids=$(perf script -i "$TEST_TMP/threads.data" -F tid 2>/dev/null | sort -un)
[ "$(wc -w <<<"$tids")" -ge 3 ] || fail "threads: fewer than 3 threads sampled"
for tid in $tids; do
	"$TEPHRA" fold -q --only-tid "$tid" "$TEST_TMP/threads.data" | cut -d';' -f2- | resum | sort >"$TEST_TMP/tid-$tid.expected"
	go tool pprof -traces -unit=ns "$TEST_TMP/threads.pb.gz" 2>/dev/null |
		python3 "$X/pprof_traces.py" --root none --tid "$tid" | sort >"$TEST_TMP/tid-$tid.got"
	same_bytes "thread $tid: stacks" "$TEST_TMP/tid-$tid.expected" "$TEST_TMP/tid-$tid.got"
	# the labels: every comm the thread had (it may rename itself), and its pid
	perf script -i "$TEST_TMP/threads.data" -F comm,pid,tid --tid "$tid" 2>/dev/null |
		sed -E 's/^ *(.*[^ ]) +([0-9]+)\/([0-9]+) *$/\1\/\2\/\3/' | sort -u >"$TEST_TMP/tid-$tid.labels.expected"
	go tool pprof -traces -unit=ns "$TEST_TMP/threads.pb.gz" 2>/dev/null |
		python3 "$X/pprof_traces.py" --root labels --tid "$tid" | sed 's/;.*//' | sort -u >"$TEST_TMP/tid-$tid.labels.got"
	same_bytes "thread $tid: labels thread/pid/tid" "$TEST_TMP/tid-$tid.labels.expected" "$TEST_TMP/tid-$tid.labels.got"
done
# the samples' order (docs/export.md, "Speed and memory"): a thread's together, sorted by
# their locations root first, as go tool pprof -raw lists them
go tool pprof -raw "$TEST_TMP/threads.pb.gz" 2>/dev/null >"$TEST_TMP/threads.raw"
order=$(python3 "$X/pprof_order.py" <"$TEST_TMP/threads.raw") &&
	echo "$order: in thread, root-first order" || fail "threads: sample order: $order"
FILTERED=1 pprof_vs_fold threads-max-stack "$TEST_TMP/threads.data" none --max-stack 3
# pprof_functions NAME: the -raw checks of a --granularity=functions file
pprof_functions() {
	local got
	got=$(go tool pprof -raw "$TEST_TMP/$1.pb.gz" 2>/dev/null | python3 "$X/pprof_functions.py" 2>&1) &&
		echo "ok: $1: $got" || fail "$1: $got"
}
EXPORT_OPTS=--granularity=functions pprof_vs_fold threads-fn "$TEST_TMP/threads.data" none
pprof_functions threads-fn
for bad in "--granularity=lines" "--granularity=" "-f callgrind --granularity=functions"; do
	# shellcheck disable=SC2086
	"$TEPHRA" export -f pprof $bad -o "$TEST_TMP/bad.out" "$TEST_TMP/threads.data" 2>"$TEST_TMP/bad.err"
	rc=$?
	[ "$rc" = 2 ] && grep -q 'granularity' "$TEST_TMP/bad.err" && echo "ok: $bad: refused ($(head -n 1 "$TEST_TMP/bad.err"))" ||
		fail "$bad: exit $rc, not 2 with a message naming --granularity: $(head -n 1 "$TEST_TMP/bad.err")"
done

cc -O2 -g -o "$TEST_TMP/inlines" "$TOP/tests/fold-dwarf/inlines.c" || exit 1
record_from_main "$TEST_TMP/dw.data" -e cpu-clock --call-graph dwarf -- "$TEST_TMP/inlines" 5000000
pprof_vs_fold dwarf "$TEST_TMP/dw.data" comm
grep -q ';work;step;mix ' "$TEST_TMP/dwarf.expected" || fail "dwarf: no ;work;step;mix stack to check"
hot=$(grep -n 'HOT LINE' "$TOP/tests/fold-dwarf/inlines.c" | cut -d: -f1)
go tool pprof -raw "$TEST_TMP/dwarf.pb.gz" 2>/dev/null >"$TEST_TMP/dwarf.raw"
# a Location: "id: 0xADDR M=n mix FILE:LINE s=0" then its callers' lines (inlined into it)
grep -A2 -E "^ +[0-9]+: 0x[0-9a-f]+ M=[0-9]+ mix .*inlines\.c:$hot s=0$" "$TEST_TMP/dwarf.raw" >"$TEST_TMP/dwarf.loc"
grep -Eq '^ +step inlines\.c:[0-9]+ ' "$TEST_TMP/dwarf.loc" && grep -Eq '^ +work inlines\.c:[0-9]+ ' "$TEST_TMP/dwarf.loc" &&
	echo "ok: dwarf: mix at inlines.c:$hot, inlined in step in work, is one Location" ||
	fail "dwarf: no Location mix inlines.c:$hot with step and work as its inline chain"
EXPORT_OPTS=--granularity=functions pprof_vs_fold dwarf-fn "$TEST_TMP/dw.data" comm
pprof_functions dwarf-fn

# frame pointers, inlined calls not expanded: the frame is work's, and so is its line (the
# call site in work, lines 20-26 of the source), not the address's line in mix
record "$TEST_TMP/fpin.data" -e cpu-clock -g -- "$TEST_TMP/inlines" 5000000
"$TEPHRA" export -f pprof -o "$TEST_TMP/fpin.pb.gz" "$TEST_TMP/fpin.data" || fail "fpin: export failed"
go tool pprof -raw "$TEST_TMP/fpin.pb.gz" 2>/dev/null >"$TEST_TMP/fpin.raw"
work_lines=$(grep -Eo "^ +[0-9]+: 0x[0-9a-f]+ M=[0-9]+ work inlines\.c:[0-9]+ " "$TEST_TMP/fpin.raw" | grep -Eo ':[0-9]+ $' | tr -d ': ' | sort -un | tr '\n' ' ')
[ -n "$work_lines" ] || fail "fpin: no Location of work"
for l in $work_lines; do
	[ "$l" -ge 20 ] && [ "$l" -le 26 ] || fail "fpin: work's Location at inlines.c:$l, not in work (lines 20-26)"
done
echo "ok: fpin: work's Locations at lines $work_lines"

if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" export -f pprof -o "$TEST_TMP/asan.pb.gz" "$TEST_TMP/dw.data" 2>"$TEST_TMP/asan.err" ||
		fail "ASan: $(head -n 5 "$TEST_TMP/asan.err")"
	cmp -s "$TEST_TMP/asan.pb.gz" "$TEST_TMP/dwarf.pb.gz" || fail "ASan build wrote other bytes"
fi
finish
