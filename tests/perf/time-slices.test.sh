#!/usr/bin/env bash
# time-slices: --time with perf script's syntax, on a real recording of a program with
# two phases (tests/workloads/phases.c).  tephra script prints exactly what perf script
# prints for the same --time (absolute ranges, open ends, several ranges, percentages
# "A%-B%", slices "A%/N", several of them, boundaries on sample times: inclusive, and
# bad ranges refused as perf refuses them); fold, flamegraph, export and report slice
# the same samples: a slice from the first phase_two sample perf prints on holds only
# phase_two stacks, one up to the last phase_one sample only phase_one's.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1

record ph.data -e cpu-clock -F 4000 -g -- "$WL/phases" 300
perf script -i ph.data -F time,ip,sym --ns >ph.txt 2>/dev/null
times=$(awk '/^ *[0-9]+\.[0-9]+:/ { gsub(/[ :]/, ""); print }' ph.txt)
first=$(echo "$times" | head -n 1) last=$(echo "$times" | tail -n 1)
# the time of the first sample with phase_two on its stack, and of the last with phase_one
read -r two one < <(awk '/^ *[0-9]+\.[0-9]+:/ { t = $1; sub(/:$/, "", t); next }
	/phase_two/ && !two { two = t } /phase_one/ { one = t }
	END { print two, one }' ph.txt)
[ -n "$two" ] && [ -n "$one" ] || { echo "no phase_one/phase_two samples in perf's text"; exit 1; }
a=$(echo "$times" | sed -n 100p) b=$(echo "$times" | sed -n 200p)
mid=$(python3 -c "print('%.6f' % (($first + $last) / 2))")
for spec in "$a,$b" ",$mid" "$mid," "$first,$a $b," "10%-20%" "10%/2" "0%-10%,30%-40%" \
	"10%/1,10%/2" "33.3%-66.6%" "25%/4" ","; do
	i=$((${i:-0} + 1))
	echo "time$i: --time '$spec'"
	check_script "time$i" ph.data --time "$spec" -F comm,tid,time,event,ip,sym --ns
done
# B below A: perf selects nothing (and says nothing)
perf script -i ph.data --time 10%-5% >empty.perf 2>/dev/null
"$TEPHRA" script -q -i ph.data --time 10%-5% >empty.tephra 2>&1
[ ! -s empty.perf ] && [ ! -s empty.tephra ] || fail "--time 10%-5%: not empty as perf's"
# values perf 6.1 refuses: tephra refuses them too (exit 2, naming the value); should a
# perf accept one, tephra must then print what perf prints (no value is left unchecked)
for bad in "abc" "10%/11" "1.1234567891," "0%/1" ""; do
	if perf script -i ph.data --time "$bad" >/dev/null 2>&1; then
		echo "note: perf accepts --time '$bad': compared as a slice"
		check_script "time-accepted" ph.data --time "$bad" -F comm,tid,time,event,ip,sym --ns
		continue
	fi
	"$TEPHRA" script -i ph.data --time "$bad" >/dev/null 2>err.txt
	rc=$?
	[ $rc = 2 ] && grep -q "bad --time '$bad'" err.txt || fail "--time '$bad': exit $rc, $(head -n 1 err.txt)"
done

# the second phase alone, and the first, in every command reading perf.data
only() { # NAME WANT UNWANTED FILE: FILE names WANT and never UNWANTED
	grep -q "$2" "$4" || fail "$1: no $2"
	grep -q "$3" "$4" && fail "$1: $3 outside its slice"
}
"$TEPHRA" fold -q --time "$two," ph.data >two.folded || fail "fold --time failed"
only "fold second phase" phase_two phase_one two.folded
"$TEPHRA" fold -q --time ",$one" ph.data >one.folded
only "fold first phase" phase_one phase_two one.folded
# the slices add up: every sample is in one of them
total=$("$TEPHRA" fold -q ph.data | awk '{ s += $NF } END { print s }')
parts=$(cat one.folded two.folded | awk '{ s += $NF } END { print s }')
[ "$total" = "$parts" ] || fail "fold: the two slices sum to $parts, the whole to $total"
"$TEPHRA" flamegraph --time "$two," ph.data -o two.svg 2>/dev/null || fail "flamegraph --time failed"
only "flamegraph second phase" phase_two phase_one two.svg
"$TEPHRA" export -f speedscope --time "$two," -o two.json ph.data 2>/dev/null || fail "export --time failed"
only "export second phase" phase_two phase_one two.json
# every row (-n 0): phase_one has no self time, and in the default top 25 by self it
# fell behind kernel functions when the machine was busy (the test failed so)
"$TEPHRA" report -n 0 --time ",$one" ph.data >one.report 2>/dev/null || fail "report --time failed"
only "report first phase" phase_one phase_two one.report
exit $((failures > 0))
