#!/usr/bin/env bash
# Commands that read a profile behave alike (issue 12): given nothing, with a terminal on
# standard input, they read ./perf.data (flamegraph waited for input before); an SVG is
# never written to a terminal (without -o it goes to flame.svg, diff.svg for diff, and a
# line says so; an explicit -o - is refused); `perf script` text given to fold gets the
# --from-text hint;
# errors read `tephra COMMAND: FILE: what`, and the usage text comes only with usage
# errors.  Terminals are real ptys (tests/render/on_terminal.py).
set -u
d=$TEST_TMP
T=$TEPHRA
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$TOP/tests/skips.sh"
need_tool python3
need_perf_record -e cpu-clock
cd "$d" || exit 1
perf record -q -N -g -e cpu-clock -o perf.data -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' \
	>rec.log 2>&1 || { cat rec.log; echo "FAIL: perf record failed"; exit 1; }
on_terminal() { python3 "$TOP/tests/render/on_terminal.py" "$@"; }

# flamegraph, nothing given, terminals all round: ./perf.data into ./flame.svg
rm -f flame.svg
on_terminal term.out "$T" flamegraph 2>err; rc=$?
[ $rc = 0 ] || fail "flamegraph on a terminal: exit $rc: $(head -c 300 err)"
grep -q '^tephra flamegraph: standard output is a terminal: writing flame.svg' err ||
	fail "flamegraph did not say where the SVG went: $(head -c 300 err)"
grep -q '<title>sh (' flame.svg 2>/dev/null || fail "flame.svg is not the graph of ./perf.data"
grep -q '<svg' term.out && fail "an SVG reached the terminal"
# -o - asked for a terminal: refused, nothing drawn there
on_terminal term.out "$T" flamegraph perf.data -o - 2>err; rc=$?
[ $rc = 1 ] || fail "flamegraph -o - on a terminal: exit $rc, want 1"
grep -q '^tephra flamegraph: standard output is a terminal, not writing an SVG there: give -o FILE' err ||
	fail "flamegraph -o -: no -o hint: $(head -c 300 err)"
grep -q '<svg' term.out && fail "flamegraph -o -: an SVG reached the terminal"
# diff on a terminal: the same rule, into diff.svg
printf 'a;b 1\n' >x.folded
on_terminal term.out "$T" diff x.folded x.folded 2>err; rc=$?
[ $rc = 0 ] && grep -q '<svg' diff.svg && grep -q '^tephra diff: standard output is a terminal: writing diff.svg' err ||
	fail "diff on a terminal: exit $rc, $(head -c 300 err)"
# stdin a pipe: still read (folded text), stdout a file
printf 'main;f 3\n' | "$T" flamegraph >pipe.svg 2>err || fail "flamegraph from a pipe failed: $(cat err)"
grep -q '<title>main (3 samples, 100.00%)' pipe.svg || fail "flamegraph from a pipe: not the piped stacks"

# fold, script, stat given nothing read ./perf.data too
for cmd in fold script stat; do
	on_terminal term.out "$T" $cmd 2>err; rc=$?
	[ $rc = 0 ] || fail "$cmd with nothing given: exit $rc: $(head -c 200 err)"
done

# perf script text to fold without --from-text: the hint
perf script -i perf.data >script.txt 2>/dev/null
"$T" fold script.txt >out 2>err; rc=$?
[ $rc = 1 ] || fail "fold of perf script text: exit $rc, want 1"
grep -qx 'tephra fold: script.txt: `perf script` text, not a perf.data file: fold it with --from-text' err ||
	fail "fold of perf script text: no --from-text hint: $(head -c 300 err)"
"$T" fold --from-text script.txt >out 2>err && [ -s out ] || fail "fold --from-text script.txt failed"

# one error form, usage text only for usage errors
expect_err() { # STATUS TEXT USAGE(0/1) CMD...
	local want=$1 text=$2 usage=$3; shift 3
	"$@" >/dev/null 2>err </dev/null; local rc=$?
	[ $rc = "$want" ] || fail "$*: exit $rc, want $want"
	grep -qF -- "$text" err || fail "$*: stderr lacks '$text': $(head -c 300 err)"
	local has=0; grep -q '^usage:' err && has=1
	[ $has = "$usage" ] || fail "$*: usage text shown: $has, want $usage"
}
expect_err 1 "tephra flamegraph: /nonexistent/p.data: cannot open" 0 "$T" flamegraph /nonexistent/p.data -o x.svg
expect_err 1 "tephra diff: /nonexistent/p.data: cannot open" 0 "$T" diff /nonexistent/p.data x.folded -o x.svg
expect_err 1 "tephra fold: /nonexistent/p.data: " 0 "$T" fold /nonexistent/p.data
expect_err 2 "tephra flamegraph: --width: 5 is out of range (100..1000000)" 0 "$T" flamegraph --width 5 x.folded -o x.svg
expect_err 2 "tephra diff: --colors: unknown palette 'nope'" 0 "$T" diff --colors nope x.folded x.folded -o x.svg
expect_err 2 "unrecognized option" 1 "$T" flamegraph --bogus x.folded
expect_err 1 "tephra flamegraph: /dev/null: no stack counts found" 0 "$T" flamegraph /dev/null -o x.svg
[ $failures = 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "ok"
