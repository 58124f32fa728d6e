#!/usr/bin/env bash
# Names that forge lines (docs/hostile.md, "Names"): a process renames itself
# "a\n1 99999999" (a newline, then a callgrind cost line) and is recorded by perf.
#  - tephra script prints the comm raw, byte for byte as perf script does;
#  - tephra fold: every line is "STACK COUNT", the comm is "a?1_99999999", and the counts
#    add up to perf script's periods;
#  - export -f callgrind: callgrind_annotate (the oracle reader) shows no forged cost
#    (before: 99,999,999 ns of self time in a function "a");
#  - report: one line per row;
#  - an event name with newlines and callgrind lines (crafted header): script raw as
#    perf's, callgrind and report keep it on one line;
#  - a warning naming a file called "py\e[1m" shows "py\x1b[1m".
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
command -v perf >/dev/null || skip "perf is not installed"
perf record -q -N -o probe.data -- true >/dev/null 2>&1 || skip "perf record is not permitted here"

perf record -q -N -e cpu-clock -g -o evil.data -- python3 "$TOP/tests/hostile/set_comm.py" \
	'a\n1 99999999' 0.3 >/dev/null 2>&1 || fail "perf record failed"
perf script -i evil.data > evil.perf 2>/dev/null || fail "perf script failed"
grep -q '^1 99999999 ' evil.perf || fail "the comm did not reach the recording (premise)"
total=$(perf script -i evil.data -F period 2>/dev/null | awk '{ s += $1 } END { print s }')

expect 0 "" "$T" script -i evil.data
cmp -s evil.perf out.txt || fail "tephra script != perf script (the comm is printed raw)"

expect 0 "" "$T" fold evil.data
grep -vq '^[^ ].* [0-9][0-9]*$' out.txt && { grep -v '^[^ ].* [0-9][0-9]*$' out.txt | head -n 3; fail "fold: a line that is not 'STACK COUNT'"; }
grep -q '^a?1_99999999;' out.txt || fail "fold: no root a?1_99999999"
sum=$(awk '{ s += $NF } END { print s }' out.txt)
[ "$sum" = "$total" ] || fail "fold: counts add up to $sum, perf's periods to $total"

expect 0 "" "$T" export -f callgrind -o evil.cg evil.data
if command -v callgrind_annotate >/dev/null; then
	callgrind_annotate evil.cg > annotate.txt 2>&1 || fail "callgrind_annotate rejects the file"
	grep -q 'PROGRAM TOTALS' annotate.txt || fail "callgrind_annotate shows no totals"
	grep -q '99,999,999' annotate.txt && fail "callgrind_annotate shows the forged cost"
fi
grep -qx '1 99999999' evil.cg && fail "callgrind: a forged cost line"

expect 0 "" "$T" report evil.data
grep -q '^1 99999999' out.txt && fail "report: a forged line"
# an event name (the header's EVENT_DESC, tests/hostile/mkperf.py evname) holding
# "\nfl=/etc/passwd\nfn=forged\n1 99999999": raw in script as in perf script, one line in
# callgrind's header (before: three lines callgrind_annotate called malformed)
python3 "$TOP/tests/hostile/mkperf.py" evname 5 ev.data || fail "mkperf.py evname failed"
perf script -i ev.data > ev.perf 2>/dev/null || fail "perf script ev.data failed"
grep -qx 'fl=/etc/passwd' ev.perf || fail "perf does not print the event name raw (premise)"
expect 0 "" "$T" script -i ev.data
cmp -s ev.perf out.txt || fail "script ev.data != perf script"
expect 0 "" "$T" export -f callgrind -o ev.cg ev.data
grep -q '^fl=/etc/passwd\|^fn=forged\|^1 99999999' ev.cg && fail "callgrind: forged lines from the event name"
if command -v callgrind_annotate >/dev/null; then
	callgrind_annotate ev.cg > annotate.txt 2>&1 || fail "callgrind_annotate rejects ev.cg"
	grep -q 'malformed' annotate.txt && fail "callgrind_annotate: malformed lines in ev.cg"
fi
expect 0 "" "$T" report ev.data
grep -q '^fl=/etc/passwd' out.txt && fail "report: forged lines from the event name"

# a warning naming a file whose name holds an escape sequence: shown as \x1b, never raw
# (the system's python3: its interpreter is in the executable, so samples fall in it)
if [ -x /usr/bin/python3 ]; then
	esc=$(printf 'py\033[1m')
	cp /usr/bin/python3 "./$esc"
	perf record -q -N -e cpu-clock -o esc.data -- "./$esc" "$TOP/tests/hostile/set_comm.py" x 0.2 \
		>/dev/null 2>&1 || fail "perf record of ./py<ESC>[1m failed"
	rm "./$esc" && mkfifo "./$esc"
	expect 0 "" "$T" fold esc.data
	grep -q 'py\\x1b\[1m: not a regular file (a FIFO)' err.txt ||
		{ head -n 3 err.txt | od -c | head; fail "the warning does not show the escape as \\x1b"; }
	grep -q "$(printf '\033')" err.txt && fail "an escape byte reached stderr"
fi
echo "ok: $ncases cases"
