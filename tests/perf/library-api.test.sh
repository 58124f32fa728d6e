# library-api: perf_foreach_stack() (the per-sample iteration flame charts use) must hand
# over samples in time order, and its stacks summed must be exactly `tephra fold`'s output
# (perf_fold_file), itself checked against perf script in the other tests; on a
# frame-pointer recording and a DWARF one of C++ template code.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
[ -f "$TOP/build/libtephra-internal.a" ] || fail "build/libtephra-internal.a is not built (run make)"
cc -std=gnu11 -O1 -I"$TOP/src" -o "$TEST_TMP/foreach" "$HERE/foreach_driver.c" "$TOP/build/libtephra-internal.a" \
	$(pkg-config --libs libdw libelf libzstd zlib libdeflate 2>/dev/null || echo -ldw -lelf -lzstd -lz -ldeflate) -liberty -lpthread -lm ||
	{ echo "building the driver failed"; exit 1; }
# check_foreach NAME DATA: in time order, and summed equal to the fold
check_foreach() {
	local name=$1 data=$2
	"$TEST_TMP/foreach" "$data" >"$TEST_TMP/$name.each" || { fail "$name: perf_foreach_stack failed"; return; }
	awk 'NR > 1 && $1 < last { print "time goes back at line " NR; bad = 1 } { last = $1 } END { exit bad }' \
		"$TEST_TMP/$name.each" || fail "$name: samples are not in time order"
	# sum per stack (the stack may hold blanks: it is everything between the first and last field)
	python3 - "$TEST_TMP/$name.each" >"$TEST_TMP/$name.summed" <<'PY'
import sys
sums = {}
for line in open(sys.argv[1]):
    t, rest = line.rstrip('\n').split(' ', 1)
    stack, w = rest.rsplit(' ', 1)
    sums[stack] = sums.get(stack, 0) + int(w)
for k in sorted(sums, key=lambda k: k.encode()):
    print('%s %d' % (k, sums[k]))
PY
	"$TEPHRA" fold "$data" >"$TEST_TMP/$name.fold" 2>/dev/null || fail "$name: tephra fold failed"
	same_bytes "$name: foreach summed == fold" "$TEST_TMP/$name.fold" "$TEST_TMP/$name.summed"
	[ "$(wc -l <"$TEST_TMP/$name.each")" -gt 100 ] || fail "$name: too few samples from perf_foreach_stack"
}

record "$TEST_TMP/f.data" -g -- "$WL/forkexec" "$WL/threads" 100
check_foreach fp "$TEST_TMP/f.data"
# DWARF, C++ names decided by addr2line's memory of earlier questions
# (tests/perf-dwarf/sort_pairs.cpp): the per-sample iteration asks in fold's order
if want_tool g++ "the DWARF recording"; then
	g++ -O2 -g -o "$TEST_TMP/sort_pairs" "$TOP/tests/perf-dwarf/sort_pairs.cpp" || exit 1
	record "$TEST_TMP/d.data" -e cpu-clock -F 2000 --call-graph dwarf -- "$TEST_TMP/sort_pairs" 300
	check_foreach dwarf "$TEST_TMP/d.data"
fi
finish
