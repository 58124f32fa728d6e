#!/usr/bin/env bash
# Every form of perf.data, in every command that reads one (issue 27): a pipe-mode
# stream on standard input (`perf record -o - | tephra report -`, through a real pipe)
# and a perf.data directory (`perf record --threads -o DIR`).  The oracles are perf's:
# report's percentages are `perf report`'s (tests/export/report_compare.py), the totals
# of export, flamegraph and diff are the periods and samples `perf script` prints.  And
# what is not perf.data is said to be so: `perf script` text on standard input gets
# fold's --from-text hint, as a named file does; a file that is mostly not folded
# stacks (a program, notes) is an error for flamegraph, diff, report and export, not a profile of
# its few lines that happen to end in a number.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
X=$TOP/tests/export
T=$TEPHRA
cd "$TEST_TMP" || exit 1

# a pipe-mode stream read live by report, a copy kept for perf report
perf record -q -N -e cpu-clock -F 4000 -g -o - -- "$WL/recurse" 2>/dev/null | tee pipe.data |
	"$T" report --json -n 0 - > pipe.json 2> pipe.err || fail "report -: $(head -n 3 pipe.err)"
perf report -i pipe.data --stdio -g none --percentage relative --no-children --sort sym > pipe.perf 2>/dev/null ||
	fail "perf report -i pipe.data failed"
out=$(python3 "$X/report_compare.py" pipe.perf pipe.json self pipe.data) &&
	echo "ok: report - (pipe mode): $out" || { fail "report - differs from perf report:"; echo "$out"; }
grep -q '"source":"-"' pipe.json || fail "report -: source is not '-'"

record dir.data --threads -e cpu-clock -F 4000 -g -- "$WL/threads"
[ -d dir.data ] || fail "perf record --threads wrote no directory"
"$T" report --json -n 0 dir.data > dir.json 2> dir.err || fail "report DIR: $(head -n 3 dir.err)"
perf report -i dir.data --stdio -g none --percentage relative --no-children --sort sym > dir.perf 2>/dev/null ||
	fail "perf report -i dir.data failed"
out=$(python3 "$X/report_compare.py" dir.perf dir.json self dir.data) &&
	echo "ok: report DIR: $out" || { fail "report DIR differs from perf report:"; echo "$out"; }

# each sample's period, as perf script prints them (-G: not its call chain)
periods() { perf script -i "$1" -F period -G 2>/dev/null | grep -E '^ *[0-9]+ *$'; }

# CMD... with the pipe-mode stream on standard input, through a pipe
feed() { cat pipe.data | "$@"; }

# totals: callgrind's "totals:" is the sum of periods, the graph's root the samples
for input in pipe dir; do
	want=$(periods $input.data | awk '{ s += $1 } END { print s + 0 }')
	samples=$(periods $input.data | grep -c .)
	[ "$samples" -gt 0 ] || fail "$input: perf script prints no samples"
	src=$input.data; [ $input = pipe ] && src=-
	feed "$T" export -f callgrind -o $input.callgrind $src 2> export.err ||
		fail "export $src ($input): $(head -n 3 export.err)"
	got=$(sed -n 's/^totals: //p' $input.callgrind)
	[ "$got" = "$want" ] && echo "ok: export $input: totals $got, perf script's periods" ||
		fail "export $input: totals '$got', perf script sums $want"
	feed "$T" flamegraph -q --weight samples -o $input.svg $src 2> graph.err ||
		fail "flamegraph $src ($input): $(head -n 3 graph.err)"
	grep -q "<title>all ($samples samples, 100%)" $input.svg &&
		echo "ok: flamegraph $input: $samples samples, as perf script" ||
		fail "flamegraph $input: $(grep -o '<title>all[^<]*' $input.svg), perf script has $samples samples"
done
# script (byte for byte with perf script) and heatmap read both forms too
for input in pipe dir; do
	src=$input.data; [ $input = pipe ] && src=-
	perf script -i $input.data > $input.perf-script 2>/dev/null
	feed "$T" script -q $src > $input.tephra-script 2> script.err || fail "script $src ($input): $(head -n 3 script.err)"
	cmp -s $input.perf-script $input.tephra-script && echo "ok: script $input: perf script's bytes" ||
		fail "script $input differs from perf script: $(diff $input.perf-script $input.tephra-script | head -n 5)"
	feed "$T" heatmap -o $input.html $src 2> heat.err && [ -s $input.html ] ||
		fail "heatmap $src ($input): $(head -n 3 heat.err)"
done
"$T" diff -o d.svg dir.data dir.data 2> diff.err || fail "diff DIR DIR: $(head -n 3 diff.err)"
feed "$T" diff --folded -o d.folded - dir.data 2> diff.err || fail "diff - DIR: $(head -n 3 diff.err)"
want=$(periods pipe.data | awk '{ s += $1 } END { print s + 0 }')
got=$(awk '{ s += $(NF - 1) } END { print s + 0 }' d.folded)
[ "$got" = "$want" ] && echo "ok: diff - DIR: the first column sums to $got, perf script's" ||
	fail "diff - DIR: the first column sums to $got, perf script to $want"

# not perf.data, said so
perf script -i pipe.data > script.txt 2>/dev/null
"$T" fold - < script.txt > /dev/null 2> err.txt && fail "fold - accepted perf script text"
grep -qF 'tephra fold: <stdin>: `perf script` text, not a perf.data file: fold it with --from-text' err.txt &&
	echo "ok: fold - of perf script text: the --from-text hint" || fail "fold -: $(head -n 2 err.txt)"
cat script.txt | "$T" flamegraph -o s.svg - 2> err.txt && fail "flamegraph - drew perf script text"
grep -qF 'tephra flamegraph: <stdin>: `perf script` text, not folded stacks' err.txt ||
	fail "flamegraph - of perf script text: $(head -n 2 err.txt)"
cat script.txt | "$T" report - > /dev/null 2> err.txt && fail "report - of perf script text succeeded"
grep -qF 'tephra report: <stdin>: `perf script` text, not folded stacks: fold it with tephra fold --from-text first' err.txt ||
	fail "report - of perf script text: $(head -n 2 err.txt)"
# text of which a few lines end in a number (2 of 30), and a program
{ for i in $(seq 28); do echo "notes: $i, not a stack"; done; echo "room 12"; echo "total 345"; } > notes.txt
for f in notes.txt "$WL/recurse"; do
	for cmd in flamegraph diff report export; do
		in=("$f"); [ $cmd = diff ] && in=("$f" "$f")
		out=(-o junk.svg); [ $cmd = report ] && out=(); [ $cmd = export ] && out=(-f pprof -o junk.pb.gz)
		"$T" $cmd "${out[@]}" "${in[@]}" > /dev/null 2> err.txt && fail "$cmd $f: a profile of a file that is not folded stacks"
		grep -qE "^tephra $cmd: $f: (not folded stacks: [0-9]+ of [0-9]+ lines|no folded stack in it)" err.txt &&
			echo "ok: $cmd $f: not folded stacks" || fail "$cmd $f: $(head -n 2 err.txt)"
	done
done
[ $failures = 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo ok
