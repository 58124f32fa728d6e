#!/usr/bin/env bash
# DWARF callchains: perf 6.1 expands each address into its inline chain
# ("inner+0x42 (inlined)" ... "outer+0x42 (binary)"); dso_inline_chain must list the
# same frames.  C with always_inline helpers, and C++ (templates, libstdc++ inlines).
. "$TOP/tests/symbol/lib.sh"
need_perf
cd "$TEST_TMP"
gcc -O2 -g -o inl "$PROGS/inline_chain.c" || fail build
want_tool g++ "the C++ program" && { g++ -O2 -g -o cxx "$PROGS/cxx_templates.cpp" || fail "build c++"; }
run() { # name cmd...
	local name=$1; shift
	perf --buildid-dir "$BID" record -q -e cpu-clock -F 1000 --call-graph dwarf,16384 \
		-o $name.data -- "$@" >/dev/null 2>&1 || fail "record $name"
	compare $name.data --inline
}
run inl ./inl 3000000
expect_line inl.data "inner\+0x[0-9a-f]+ \(inlined\)"
expect_line inl.data "middle\+0x[0-9a-f]+ \(inlined\)"
if [ -x cxx ]; then
	run cxx ./cxx 300
fi

# Source lines (perf script -F srcline: innermost file:line, file's last component).
perf --buildid-dir "$BID" record -q -e cpu-clock -F 2000 -g -o src.data -- ./inl 3000000 \
	>/dev/null 2>&1 || fail "record src"
perf --buildid-dir "$BID" script -i src.data -F ip,dso,srcline >src.script 2>/dev/null || fail "script srcline"
perf --buildid-dir "$BID" buildid-list -i src.data >src.bids 2>/dev/null
python3 "$TOP/tests/symbol/compare_srcline.py" src.script src.bids "$LOOKUP" --buildid-dir "$BID" ||
	fail "source lines differ from perf"
grep -q "inline_chain.c:" src.script || fail "perf printed no source line of the workload"
