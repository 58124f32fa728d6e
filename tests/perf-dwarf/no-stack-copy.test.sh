#!/usr/bin/env bash
# no-stack-copy: a `--call-graph dwarf` sample whose user stack the kernel could not copy
# (a dump of 0 bytes: perf_event's copy does not fault pages in; seen in ld.so's
# start-up, whose stack pages are not touched yet) has no frame at all: perf script
# prints an empty stack, stackcollapse-perf.pl charges it to the bare comm, perf report
# to the function of its ip.  untouched_stack.c makes every sample of one function such
# a sample, in every recording.  Oracles, the machine's perf on the same recording:
#  - tephra's default (fold, report): perf report's per-function self and total
#    percentages (tests/export/report_compare.py) and the function's period;
#  - tephra script and fold --compat: perf script's bytes, and the collapse of its text
#    (tests/perf/collapse.py: the bare comm);
#  - the stack-quality line of fold, script and stat: perf script -D's samples whose
#    "ustack" has size 0.
. "$TOP/tests/perf/lib.sh"
need_perf
cc -O2 -g -o "$TEST_TMP/untouched_stack" "$TOP/tests/perf-dwarf/untouched_stack.c" || exit 1
data=$TEST_TMP/nostack.data
record "$data" -e cpu-clock -F 4000 --call-graph dwarf -- "$TEST_TMP/untouched_stack"
spin=spin_on_untouched_stack

# the premise: perf script prints empty stacks (a header line alone: tid and period),
# in $spin among others (a start-up sample in ld.so can have none either: one in some
# recordings), and perf report charges those of $spin to it.  Which function an empty
# stack's sample is in: its ip, from the same samples in order with -G (no call graph)
perf script -i "$data" -F tid,period,ip 2>/dev/null |
	awk 'BEGIN { RS = "" } { print (NF == 2) }' >"$TEST_TMP/empty.flags"
perf script -G -i "$data" -F tid,period,ip,sym 2>/dev/null >"$TEST_TMP/sample.ips"
[ "$(wc -l <"$TEST_TMP/empty.flags")" = "$(wc -l <"$TEST_TMP/sample.ips")" ] ||
	fail "perf script -G printed $(wc -l <"$TEST_TMP/sample.ips") samples, with call graphs $(wc -l <"$TEST_TMP/empty.flags")"
empty=$(paste -d' ' "$TEST_TMP/empty.flags" "$TEST_TMP/sample.ips" | awk '$1 == 1 { s += $3 } END { print s + 0 }')
empty_spin=$(paste -d' ' "$TEST_TMP/empty.flags" "$TEST_TMP/sample.ips" |
	awk -v f="$spin" '$1 == 1 && $NF == f { s += $3 } END { print s + 0 }')
[ "$empty_spin" -gt 0 ] || fail "perf script printed no empty stack in $spin (nothing tested)"
want=$(perf report -i "$data" --stdio --no-children -g none --sort sym -F period,sym 2>/dev/null |
	awk -v f="$spin" '$NF == f { s += $1 } END { print s + 0 }')
[ "$want" -ge "$empty_spin" ] ||
	fail "perf report charges $spin with $want, less than perf script's empty stacks there ($empty_spin)"
echo "note: perf script: $empty ns of empty stacks, $empty_spin ns of them in $spin; perf report: $want ns in $spin"

# default: charged to the ip's function, as perf report does
"$TEPHRA" fold -q "$data" >"$TEST_TMP/default.fold" || fail "tephra fold failed"
got=$(awk -v f="$spin" '{ n = split($1, a, ";") } a[n] == f { s += $2 } END { print s + 0 }' "$TEST_TMP/default.fold")
[ "$got" = "$want" ] && echo "ok: tephra fold: $got ns with leaf $spin, as perf report" ||
	fail "tephra fold: $got ns with leaf $spin, perf report $want"
! grep -q '^[^;]* [0-9]*$' "$TEST_TMP/default.fold" ||
	fail "tephra fold prints a bare comm: $(grep '^[^;]* [0-9]*$' "$TEST_TMP/default.fold" | head -n 2)"
for mode in self total; do
	children=--no-children
	[ "$mode" = total ] && children=--children
	perf report -i "$data" --stdio -g none --percentage relative $children --sort sym \
		>"$TEST_TMP/$mode.perf" 2>/dev/null || fail "perf report $children failed"
	"$TEPHRA" report --json -n 0 -s sym "$data" >"$TEST_TMP/$mode.json" || fail "tephra report failed"
	if out=$(python3 "$TOP/tests/export/report_compare.py" "$TEST_TMP/$mode.perf" "$TEST_TMP/$mode.json" "$mode" "$data"); then
		echo "ok: report $mode: $out"
	else
		fail "report $mode differs from perf report:"; echo "$out"
	fi
done

# --compat and tephra script: perf script's empty stack
check_script nostack "$data"
check_fold nostack "$data" "" ""
comm=$(awk '!/;/ { print $2 }' "$TEST_TMP/nostack.fold")
[ "$comm" = "$empty" ] && echo "ok: fold --compat: the bare comm has perf script's empty stacks" ||
	fail "fold --compat: bare comm weight '$comm', perf script's empty stacks $empty"

# the quality block counts them (user- and kernel-mode samples alike)
nocopy=$(perf script -D -i "$data" 2>/dev/null | grep -c 'ustack: size 0,')
"$TEPHRA" fold "$data" 2>"$TEST_TMP/fold.block" >/dev/null
"$TEPHRA" script -i "$data" 2>"$TEST_TMP/script.block" >/dev/null
"$TEPHRA" stat "$data" >"$TEST_TMP/stat.block" 2>&1
for cmd in fold script stat; do
	line=$(grep 'user stack not copied' "$TEST_TMP/$cmd.block")
	case $line in
	*": $nocopy samples,"*) echo "ok: $cmd's quality block: $nocopy samples with no stack copied" ;;
	*) fail "$cmd's quality block says '$line', perf script -D has $nocopy samples with ustack size 0" ;;
	esac
done
finish
