#!/usr/bin/env bash
# tephra export -f speedscope on recordings made here with the machine's perf (a
# threaded frame-pointer one, a DWARF one with inlined functions): one sampled profile
# per thread named "comm (pid/tid)" as perf script prints them (its last comm), the weights in perf
# script's order (time order) with the sample periods, the stacks those of `tephra fold
# --only-tid` (tests/export/speedscope_check.py); valid against the file-format schema
# the speedscope npm package ships (installed here with npm ci, when npm can).
# The speedscope app itself importing such a file: tests/export/speedscope_app.test.sh.
. "$TOP/tests/perf/lib.sh"
. "$TOP/tests/export/speedscope_lib.sh"
need_perf
build_workloads
X=$TOP/tests/export
schema=$(speedscope_schema) || exit 1

# check NAME DATA
check() {
	local name=$1 data=$2 dir=$TEST_TMP/$1.threads
	"$TEPHRA" export -f speedscope -o "$TEST_TMP/$name.json" "$data" 2>"$TEST_TMP/$name.err" ||
		{ fail "$name: tephra export failed: $(head -n 3 "$TEST_TMP/$name.err")"; return; }
	thread_oracles "$data" "$dir"
	if out=$(python3 "$X/speedscope_check.py" "$TEST_TMP/$name.json" "$dir" $schema); then
		echo "ok: $name: $out${schema:+, schema-valid}"
	else
		fail "$name:"; echo "$out"
	fi
}

record "$TEST_TMP/threads.data" -e cpu-clock -F 4000 -g -- "$WL/threads"
check threads "$TEST_TMP/threads.data"
cc -O2 -g -o "$TEST_TMP/inlines" "$TOP/tests/fold-dwarf/inlines.c" || exit 1
record "$TEST_TMP/dw.data" -e cpu-clock --call-graph dwarf -D 20 -- "$TEST_TMP/inlines" 5000000
check dwarf "$TEST_TMP/dw.data"
grep -q '"name":"mix","file":"inlines.c"' "$TEST_TMP/dwarf.json" || fail "dwarf: no frame for the inlined mix with its file"
finish
