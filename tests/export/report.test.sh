#!/usr/bin/env bash
# tephra report against perf report on recordings made here with the machine's perf
# (cpu-clock; frame pointers, a threaded workload, and --call-graph dwarf with inlined
# functions): per function, self percentages equal `perf report --no-children --sort
# sym`'s and total ones `--children`'s within rounding (tests/export/report_compare.py);
# the same per object (-s dso) and per comm (-s comm); --comms keeps what perf script
# --comms keeps; the text table's rows are the JSON's, sorted as asked.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
X=$TOP/tests/export

# check NAME DATA MODE PERF-REPORT-OPTIONS -- TEPHRA-REPORT-OPTIONS
check() {
	local name=$1 data=$2 mode=$3; shift 3
	local popts=()
	while [ "$1" != -- ]; do popts+=("$1"); shift; done
	shift
	local children=--no-children
	[ "$mode" = total ] && children=--children
	perf report -i "$data" --stdio -g none --percentage relative $children "${popts[@]}" >"$TEST_TMP/$name.perf" 2>"$TEST_TMP/$name.perf.err" ||
		{ fail "$name: perf report failed: $(head -n 3 "$TEST_TMP/$name.perf.err")"; return; }
	"$TEPHRA" report --json -n 0 "$@" "$data" >"$TEST_TMP/$name.json" 2>"$TEST_TMP/$name.err" ||
		{ fail "$name: tephra report failed: $(head -n 3 "$TEST_TMP/$name.err")"; return; }
	if out=$(python3 "$X/report_compare.py" "$TEST_TMP/$name.perf" "$TEST_TMP/$name.json" "$mode" "$data"); then
		echo "ok: $name: $out"
	else
		fail "$name: tephra report differs from perf report:"; echo "$out"
	fi
}

record "$TEST_TMP/fp.data" -e cpu-clock -F 4000 -g -- "$WL/recurse"
check fp-self "$TEST_TMP/fp.data" self --sort sym -- -s sym
check fp-total "$TEST_TMP/fp.data" total --sort sym -- -s sym --sort total
check fp-dso "$TEST_TMP/fp.data" self --sort dso -- -s dso

record "$TEST_TMP/threads.data" -e cpu-clock -F 4000 -g -- "$WL/threads"
check threads-self "$TEST_TMP/threads.data" self --sort sym -- -s sym
check threads-total "$TEST_TMP/threads.data" total --sort sym -- -s sym
check threads-comm "$TEST_TMP/threads.data" self --sort comm -- -s comm
# Filters are perf script's (--comms, --only-tid): on these recordings perf report's
# own --comms/--tid also drop some kernel samples that perf script keeps, so the
# filtered report is checked against the samples perf script keeps.
comm=$(perf script -i "$TEST_TMP/threads.data" -F comm 2>/dev/null | sed -E 's/^ *//; s/ *$//' | sort | uniq -c | sort -nr | sed -E 's/^ *[0-9]+ //' | head -n 1)
want=$(perf script -i "$TEST_TMP/threads.data" --comms "$comm" -F period 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
got=$("$TEPHRA" report --json --comms "$comm" "$TEST_TMP/threads.data" | python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')
[ "$want" = "$got" ] && echo "ok: --comms '$comm': $got ns, as perf script --comms" ||
	fail "--comms '$comm': tephra report's total $got, perf script --comms sums $want"

# --event picks one event of several (perf script's name), as fold does: its total is
# the sum of that event's periods in perf script, its unit kept; an unknown name fails
record "$TEST_TMP/two.data" -e cpu-clock -e task-clock -F 2000 -g -- "$WL/recurse"
for ev in cpu-clock task-clock; do
	want=$(perf script -i "$TEST_TMP/two.data" -F event,period 2>/dev/null | awk -v e="$ev:" '$2 == e { s += $1 } END { print s + 0 }')
	got=$("$TEPHRA" report --json --event "$ev" "$TEST_TMP/two.data" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["total"], d["unit"])')
	[ "$got" = "$want nanoseconds" ] && echo "ok: --event $ev: $got, as perf script" ||
		fail "--event $ev: tephra report says '$got', perf script sums $want (nanoseconds)"
done
for cmd in "report" "export -f pprof -o $TEST_TMP/bogus.pb.gz"; do
	# shellcheck disable=SC2086
	if "$TEPHRA" $cmd --event bogus "$TEST_TMP/two.data" >/dev/null 2>"$TEST_TMP/bogus.err"; then
		fail "$cmd --event bogus accepted"
	else
		grep -q "no event 'bogus'.*cpu-clock" "$TEST_TMP/bogus.err" ||
			fail "$cmd --event bogus: $(head -n 1 "$TEST_TMP/bogus.err")"
	fi
done

cc -O2 -g -o "$TEST_TMP/inlines" "$TOP/tests/fold-dwarf/inlines.c" || exit 1
record_from_main "$TEST_TMP/dw.data" -e cpu-clock --call-graph dwarf -- "$TEST_TMP/inlines" 5000000
check dwarf-self "$TEST_TMP/dw.data" self --sort sym -- -s sym
check dwarf-total "$TEST_TMP/dw.data" total --sort sym -- -s sym
grep -q '"name":"mix"' "$TEST_TMP/dwarf-total.json" || fail "dwarf: the inlined function mix has no row"
# glibc functions with several ELF symbols: perf report names them by one of those, perf
# script and tephra by DWARF's name; the comparator groups the names of one address
cc -O2 -g -o "$TEST_TMP/aliases" "$X/aliases.c" -lpthread || exit 1
# -D 20, as for dw.data: samples in ld.so's start-up are not this check's subject (a
# sample with no stack copied there is tests/perf-dwarf/no-stack-copy's), and there
# perf report names what this comparator cannot group: libc's IFUNC resolvers, run
# while ld.so relocates, are perf report's ELF `strcmp`, perf script's and tephra's
# DWARF `strcmp_ifunc` (in no symbol table): 7 of 16 recordings from the start at 50 kHz
# differed so in --children totals (docs/export.md, "tephra report")
record "$TEST_TMP/alias.data" -e cpu-clock --call-graph dwarf -D 20 -- "$TEST_TMP/aliases" 3000000
check alias-self "$TEST_TMP/alias.data" self --sort sym -- -s sym
check alias-total "$TEST_TMP/alias.data" total --sort sym -- -s sym

# the table: the JSON's rows, in the order asked for
"$TEPHRA" report -n 5 --sort total "$TEST_TMP/fp.data" >"$TEST_TMP/table.txt" || fail "tephra report (table) failed"
"$TEPHRA" report --json -n 5 --sort total "$TEST_TMP/fp.data" >"$TEST_TMP/table.json"
python3 - "$TEST_TMP/table.txt" "$TEST_TMP/table.json" <<'PY' || fail "the table is not the JSON's rows in total order"
import json, sys
rows = [l.split(None, 5) for l in open(sys.argv[1]) if not l.startswith("#")]
doc = json.load(open(sys.argv[2]))
assert len(rows) == len(doc["rows"]) == 5, (len(rows), len(doc["rows"]))
for t, j in zip(rows, doc["rows"]):
    assert t[5].rstrip("\n") == j["name"], (t, j)
    assert t[4] == (j["object"].rsplit("/", 1)[-1] or "[unknown]"), (t, j)
    assert abs(float(t[3].rstrip("%")) - j["total_percent"]) < 0.006, (t, j)
tot = [j["total"] for j in doc["rows"]]
assert tot == sorted(tot, reverse=True), tot
PY
# per (object, function), as perf report --no-children --sort dso,sym
# (tests/export/report_dso_sym.py): a name in two objects is two rows (python3's _start
# and ld.so's, recorded from the start), one C++ function one row however its samples
# are named (an inline chain's outermost line is DWARF's name, `__move_merge<...>`, the
# function's own symbol `std::__move_merge<...>(...)`: sort_map_pairs.cpp with DWARF
# stacks), and with --addrs code with no symbol per object and address (python3.11 is
# stripped here; perf names such code by address)
# check_dso NAME DATA [TEPHRA-REPORT-OPTIONS]
check_dso() {
	local name=$1 data=$2; shift 2
	perf report -i "$data" --stdio -g none --percentage relative --no-children --sort dso,sym \
		>"$TEST_TMP/$name.perf" 2>"$TEST_TMP/$name.perf.err" ||
		{ fail "$name: perf report failed: $(head -n 3 "$TEST_TMP/$name.perf.err")"; return; }
	"$TEPHRA" report --json -n 0 "$@" "$data" >"$TEST_TMP/$name.json" 2>"$TEST_TMP/$name.err" ||
		{ fail "$name: tephra report failed: $(head -n 3 "$TEST_TMP/$name.err")"; return; }
	if out=$(python3 "$X/report_dso_sym.py" "$TEST_TMP/$name.perf" "$TEST_TMP/$name.json" "$data"); then
		echo "ok: $name: $out"
	else
		fail "$name: tephra report differs from perf report --sort dso,sym:"; echo "$out"
	fi
}
c++ -O2 -g -o "$TEST_TMP/smp" "$TOP/tests/workloads/sort_map_pairs.cpp" || exit 1
record "$TEST_TMP/cxx.data" -e cpu-clock -F 4000 --call-graph dwarf -- "$TEST_TMP/smp" 300
check_dso cxx-dso-sym "$TEST_TMP/cxx.data"
if [ -x /usr/bin/python3 ]; then
	# DWARF stacks: python3.11 keeps no frame pointers, its stacks reach _start unwound
	record "$TEST_TMP/py.data" -e cpu-clock -F 20000 --call-graph dwarf -- /usr/bin/python3 -c pass
	check_dso py-dso-sym "$TEST_TMP/py.data"
	check_dso py-dso-sym-addrs "$TEST_TMP/py.data" --addrs
	# _start is a row per object, as perf report --children --sort dso,sym lists it (its
	# total is not compared: where perf 6.1's unwinder stops short of _start and ours
	# does not, the totals differ by a few tenths of a percent)
	perf report -i "$TEST_TMP/py.data" --stdio -g none --percentage relative --children \
		--sort dso,sym 2>/dev/null | awk '$NF == "_start" { print $3 }' | sort >"$TEST_TMP/start.perf"
	python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    if r["name"] == "_start": print(r["object"].rsplit("/", 1)[-1])' \
		"$TEST_TMP/py-dso-sym.json" | sort >"$TEST_TMP/start.tephra"
	[ "$(wc -l <"$TEST_TMP/start.perf")" -ge 2 ] || fail "premise: perf report has _start in fewer than 2 objects"
	if cmp -s "$TEST_TMP/start.perf" "$TEST_TMP/start.tephra"; then
		echo "ok: _start per object: $(tr '\n' ' ' <"$TEST_TMP/start.tephra")"
	else
		fail "_start per object: perf $(tr '\n' ' ' <"$TEST_TMP/start.perf"), tephra $(tr '\n' ' ' <"$TEST_TMP/start.tephra")"
	fi
else
	echo "note: no /usr/bin/python3: its part skipped"
fi
"$TEPHRA" report -s nosuch "$TEST_TMP/fp.data" >/dev/null 2>&1 && fail "-s nosuch accepted"
"$TEPHRA" report --top -1 "$TEST_TMP/fp.data" >/dev/null 2>&1 && fail "--top -1 accepted"
finish
