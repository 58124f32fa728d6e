#!/usr/bin/env bash
# Oracle: a real `perf record -g` run on this machine, folded from `perf script` text.
# perf's own `perf report` totals must equal the folded weights: per comm (the root
# without options) and per thread (the root with --tid), and the sample counts.
. "$(dirname "$0")/lib.sh"

need_perf_record -e cpu-clock
data=$TEST_TMP/perf.data
if ! perf record -q -g -e cpu-clock -F 4000 -o "$data" -- \
	sh -c 'i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; ls -R /usr/share >/dev/null' \
	>"$TEST_TMP/record.log" 2>&1; then
	tail -3 "$TEST_TMP/record.log"
	echo "FAIL: perf record failed"
	exit 1
fi
perf script -i "$data" >"$TEST_TMP/script.txt" 2>/dev/null
[ -s "$TEST_TMP/script.txt" ] || { echo "FAIL: perf script printed nothing"; exit 1; }

# perf report: "PERIOD SAMPLES KEY" lines; the comm may contain spaces (as '_' in roots).
perf report -i "$data" --stdio -g none --sort comm -F period,sample,comm 2>/dev/null |
	awk '!/^#/ && NF >= 3 { p = $1; s = $2; $1 = ""; $2 = ""; k = substr($0, 3);
		sub(/ +$/, "", k); gsub(/ /, "_", k); print k, p, s }' | sort >"$TEST_TMP/want.comm"
perf report -i "$data" --stdio -g none --sort pid -F period,sample,pid 2>/dev/null |
	awk '!/^#/ && NF >= 3 { split($3, a, ":"); print a[1], $1, $2 }' | sort >"$TEST_TMP/want.tid"
[ -s "$TEST_TMP/want.comm" ] || { echo "FAIL: perf report printed nothing"; exit 1; }

# Our side: sum the weights (and count the lines' samples via --stats) per root.
sum_roots() { # FILE [tid]: prints "ROOT PERIOD" (or "TID PERIOD" from "comm-?/TID") sorted
	awk -v tid="${2:-}" '{ w = $NF; r = $0; sub(/;.*/, "", r); sub(/ [0-9]+$/, "", r);
		if (tid != "") sub(/.*\//, "", r); s[r] += w }
		END { for (k in s) print k, s[k] }' "$1" | sort
}
for d in "${DRIVERS[@]}"; do
	"$d" --stats "$TEST_TMP/script.txt" >"$TEST_TMP/ours.comm" 2>"$TEST_TMP/stats" || {
		echo "FAIL $d exited non-zero"; failures=$((failures + 1)); continue; }
	"$d" --tid "$TEST_TMP/script.txt" >"$TEST_TMP/ours.tid" 2>/dev/null
	# perf report totals by comm / tid, without the sample count column.
	cut -d' ' -f1,2 "$TEST_TMP/want.comm" >"$TEST_TMP/want.comm.p"
	awk '{ print $1, $2 }' "$TEST_TMP/want.tid" | sort >"$TEST_TMP/want.tid.p"
	sum_roots "$TEST_TMP/ours.comm" >"$TEST_TMP/got.comm"
	sum_roots "$TEST_TMP/ours.tid" tid >"$TEST_TMP/got.tid"
	if ! cmp -s "$TEST_TMP/want.comm.p" "$TEST_TMP/got.comm"; then
		echo "FAIL per-comm periods differ from perf report ($d):"
		diff "$TEST_TMP/want.comm.p" "$TEST_TMP/got.comm" | head
		failures=$((failures + 1))
	fi
	if ! cmp -s "$TEST_TMP/want.tid.p" "$TEST_TMP/got.tid"; then
		echo "FAIL per-thread periods differ from perf report ($d):"
		diff "$TEST_TMP/want.tid.p" "$TEST_TMP/got.tid" | head
		failures=$((failures + 1))
	fi
	want_samples=$(awk '{ n += $3 } END { print n }' "$TEST_TMP/want.comm")
	got_samples=$(sed -n 's/.*samples \([0-9]*\).*/\1/p' "$TEST_TMP/stats")
	if [ "$want_samples" != "$got_samples" ]; then
		echo "FAIL sample count: perf report $want_samples, folded $got_samples ($d)"
		failures=$((failures + 1))
	fi
done
echo "perf report: $(wc -l <"$TEST_TMP/want.comm") comms, $(wc -l <"$TEST_TMP/want.tid") threads"
fold_done
