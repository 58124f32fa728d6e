# guest-samples: samples taken in a guest (cpumode GUEST_KERNEL/GUEST_USER, what `perf
# kvm record` writes) are hidden by perf script and perf report, whose addresses mean
# nothing in the host's maps; tephra printed them as host samples.  No KVM here: a real
# recording has every third sample marked so (tests/perfdata/guest_misc.py, the cpumode
# bits of the header's misc and nothing else).  Oracles: perf script and the collapse of
# its text on the marked file; perf report --percentage relative per object and function;
# the number hidden = perf report --stats' samples - perf script's; with --guest, perf
# script of the original recording (the marked samples printed as they were).
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1
record host.data -e cpu-clock -F 4000 -g -- "$WL/recurse"
n=$(python3 "$TOP/tests/perfdata/guest_misc.py" host.data guest.data 3) || exit 1
echo "$n samples marked as a guest's"
[ "$n" -ge 10 ] || fail "only $n samples marked: nothing tested"
all=$(perf report -i guest.data --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
shown=$(perf script -i guest.data -F period 2>/dev/null | wc -l)
[ $((all - shown)) -eq "$n" ] || fail "perf script hides $((all - shown)) samples, not the $n marked: the premise fails"

for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	TEPHRA_BIN=$bin check_script "script $(basename "$(dirname "$bin")")" guest.data
done
check_fold fold guest.data "" ""
# --guest shows them: the original recording's text
perf script -i host.data >host.perf 2>/dev/null
"$TEPHRA" script -q --guest guest.data >guest-shown.tephra 2>/dev/null || fail "script --guest failed"
same_bytes "script --guest" host.perf guest-shown.tephra

# the count: tephra stat and the stack-quality block
"$TEPHRA" stat guest.data >stat.txt 2>&1 || fail "tephra stat failed"
grep -qx "taken in a guest (perf kvm): $n samples (perf script and perf report hide them; tephra too, unless --guest)" stat.txt ||
	fail "tephra stat does not count the $n guest samples: $(grep -i guest stat.txt)"
"$TEPHRA" script guest.data 2>block.txt >/dev/null
grep -qx "  taken in a guest (perf kvm): $n samples, left out as perf script and perf report leave them (--guest keeps them)" block.txt ||
	fail "the stack-quality block does not count the $n guest samples: $(cat block.txt)"

# tephra report against perf report (which also hides them; relative percentages: of
# the samples shown)
for key in dso sym; do
	perf report -i guest.data --stdio -g none --percentage relative --no-children --sort "$key" >"report-$key.perf" 2>/dev/null ||
		fail "perf report --sort $key failed"
	"$TEPHRA" report --json -n 0 -s "$key" guest.data >"report-$key.json" 2>/dev/null || fail "tephra report -s $key failed"
	if out=$(python3 "$TOP/tests/export/report_compare.py" "report-$key.perf" "report-$key.json" self guest.data); then
		echo "ok: report -s $key: $out"
	else
		fail "report -s $key differs from perf report:"; echo "$out"
	fi
done
total=$("$TEPHRA" report --json guest.data | python3 -c 'import json, sys; print(json.load(sys.stdin)["samples"])')
[ "$total" = "$shown" ] && echo "ok: report counts $total samples, as perf script shows" ||
	fail "tephra report counts $total samples, perf script shows $shown"
finish
