#!/usr/bin/env bash
# Numeric option values, every command's: a value out of range or not a number is a usage
# error (exit 2) naming the option and its range, "tephra CMD: --OPT: V is out of range
# (MIN..MAX)" - never an abort (--max-stack 99999999999 once asked for 77 GB), never a
# silent wrap (--max-stack 4294967297 was 1).  The range's ends are accepted.  Surplus
# operands are a usage error that names them, and getopt's own complaints start with
# "tephra CMD:" too.
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN

# A real recording, so that an accepted value is seen to work on it.
command -v perf > /dev/null || skip "perf not installed"
perf record -q -e cpu-clock -F 999 -g -o p.data -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	2> /dev/null || skip "perf record does not work here"
printf 'main;f 3\nmain;g 1\n' > x.folded
printf 'x' > guest

range() { # WANT-TEXT CMD...: a usage error with that text, stderr's first line
	expect 2 "$1" "${@:2}"
	head -n 1 err.txt | grep -qF -- "$1" || fail "not the first line: $(head -n 1 err.txt): ${*:2}"
}
for cmd in fold script export report heatmap; do
	extra=(); [ $cmd = export ] && extra=(-f pprof -o out.pb.gz)
	range "tephra $cmd: --max-stack: 99999999999 is out of range (1..65535)" \
		"$T" $cmd "${extra[@]}" --max-stack 99999999999 p.data
	range "tephra $cmd: --max-stack: 4294967297 is out of range (1..65535)" \
		"$T" $cmd "${extra[@]}" --max-stack 4294967297 p.data
	range "tephra $cmd: --max-stack: 0 is out of range (1..65535)" \
		"$T" $cmd "${extra[@]}" --max-stack 0 p.data
	range "tephra $cmd: --max-stack: '12x' is not a whole number (1..65535)" \
		"$T" $cmd "${extra[@]}" --max-stack 12x p.data
	expect 0 "" "$T" $cmd "${extra[@]}" --max-stack 65535 p.data
done
# script spells them --pid/--tid, the others --only-pid/--only-tid
range "tephra script: --pid: 4294967297 is out of range (0..4194304)" "$T" script --pid 4294967297 p.data
range "tephra script: --tid: '-1' is not a whole number (0..4194304)" "$T" script --tid 1,-1 p.data
range "tephra fold: --only-pid: 4294967297 is out of range (0..4194304)" "$T" fold --only-pid 4294967297 p.data
range "tephra report: --only-tid: '' is not a whole number (0..4194304)" "$T" report --only-tid 1,,2 p.data
expect 0 "" "$T" fold -q --only-pid 4194304 p.data
[ -s out.txt ] && fail "fold --only-pid 4194304 kept samples of a pid no kernel gives"
range "tephra report: --top: '-1' is not a whole number (0..1000000000)" "$T" report --top -1 p.data
range "tephra report: --top: 99999999999 is out of range (0..1000000000)" "$T" report --top 99999999999 p.data
expect 0 "" "$T" report --top 0 p.data
range "tephra heatmap: --rows: 1001 is out of range (1..1000)" "$T" heatmap --rows 1001 p.data
range "tephra heatmap: --rows: 0 is out of range (1..1000)" "$T" heatmap --rows 0 p.data
for cmd in flamegraph diff; do
	in=(x.folded); [ $cmd = diff ] && in=(x.folded x.folded)
	range "tephra $cmd: --width: 99999999999 is out of range (100..1000000)" "$T" $cmd --width 99999999999 "${in[@]}" -o g.svg
	range "tephra $cmd: --width: '0x400' is not a number (100..1000000)" "$T" $cmd --width 0x400 "${in[@]}" -o g.svg
	range "tephra $cmd: --height: 'nan' is not a number (2..1000)" "$T" $cmd --height nan "${in[@]}" -o g.svg
	range "tephra $cmd: --fontsize: 1e999 is out of range (1..500)" "$T" $cmd --fontsize 1e999 "${in[@]}" -o g.svg
	range "tephra $cmd: --minwidth: ' 1' is not a number (0..1000000)" "$T" $cmd --minwidth ' 1' "${in[@]}" -o g.svg
	expect 0 "" "$T" $cmd --width 1000000 --height 2 --fontsize 500 --minwidth 100% "${in[@]}" -o g.svg
done
range "tephra record: -F: 99999999999 is out of range (1..1000000)" "$T" record -F 99999999999 -- true
range "tephra record: -F: 4294967297 is out of range (1..1000000)" "$T" record -F 4294967297 -- true
range "tephra record: --width: 5 is out of range (100..1000000)" "$T" record --width 5 -- true
range "tephra emu: --budget: 0 is out of range (1..18446744073709551615)" "$T" emu --budget 0 -- ./guest
range "tephra emu: --budget: 18446744073709551616 is out of range (1..18446744073709551615)" \
	"$T" emu --budget 18446744073709551616 -- ./guest
range "tephra emu: --checkpoint: '+5' is not a whole number (1..18446744073709551615)" \
	"$T" emu --checkpoint +5 -- ./guest

# operands
range "tephra fold: at most one input file, 2 given: 'p.data', 'x.folded'" "$T" fold p.data x.folded
range "tephra flamegraph: at most one input file, 2 given: 'p.data', 'x.folded'" "$T" flamegraph p.data x.folded
range "tephra diff: two input files, 1 given: 'x.folded'" "$T" diff x.folded
range "tephra report: at most one input file, 2 given" "$T" report p.data x.folded
range "tephra export: at most one input file, 3 given" "$T" export -f pprof -o o.pb.gz a b c
range "tephra script: at most one input file, 2 given" "$T" script p.data p.data
range "tephra heatmap: at most one input file, 2 given" "$T" heatmap p.data p.data
range "tephra trace: one input file, 0 given" "$T" trace --elf ./guest
range "tephra symbolize: one input file, 2 given: 'a', 'b'" "$T" symbolize --elf ./guest a b
range "tephra trace: --elf GUEST is needed" "$T" trace x.folded
range "tephra export: -f FORMAT (pprof, callgrind or speedscope) is needed" "$T" export -o o.pb.gz p.data
range "tephra export: -o OUT ('-': standard output) is needed" "$T" export -f pprof p.data
range "tephra emu: no guest program to run" "$T" emu
range "tephra report: unrecognized option '--bogus'" "$T" report --bogus p.data
# stat read the last of two files, and its unknown options were the usage text alone
range "tephra stat: at most one input file, 2 given: 'p.data', 'x.folded'" "$T" stat p.data x.folded
range "tephra stat: unrecognized option '--bogus'" "$T" stat --bogus p.data
expect 0 "" "$T" stat --records --unordered p.data
range "tephra fold: option requires an argument -- 'i'" "$T" fold -i
echo "ok: $ncases cases"
