# library-api: perf_foreach_stack() (the per-sample iteration flame charts use) must hand
# over samples in time order, and its stacks summed must be exactly `tephra fold`'s output
# (perf_fold_file), itself checked against perf script in the other tests.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
[ -f "$TOP/build/libtephra-internal.a" ] || fail "build/libtephra-internal.a is not built (run make)"
cc -std=gnu11 -O1 -I"$TOP/src" -o "$TEST_TMP/foreach" "$HERE/foreach_driver.c" "$TOP/build/libtephra-internal.a" \
	$(pkg-config --libs libdw libelf libzstd zlib libdeflate 2>/dev/null || echo -ldw -lelf -lzstd -lz -ldeflate) -liberty -lpthread -lm ||
	{ echo "building the driver failed"; exit 1; }
record "$TEST_TMP/f.data" -g -- "$WL/forkexec" "$WL/threads" 100
"$TEST_TMP/foreach" "$TEST_TMP/f.data" >"$TEST_TMP/each.txt" || fail "perf_foreach_stack failed"
awk 'NR > 1 && $1 < last { print "time goes back at line " NR; bad = 1 } { last = $1 } END { exit bad }' \
	"$TEST_TMP/each.txt" || fail "samples are not in time order"
# sum per stack (the stack may hold blanks: it is everything between the first and last field)
python3 - "$TEST_TMP/each.txt" >"$TEST_TMP/summed" <<'PY'
import sys
sums = {}
for line in open(sys.argv[1]):
    t, rest = line.rstrip('\n').split(' ', 1)
    stack, w = rest.rsplit(' ', 1)
    sums[stack] = sums.get(stack, 0) + int(w)
for k in sorted(sums, key=lambda k: k.encode()):
    print('%s %d' % (k, sums[k]))
PY
"$TEPHRA" fold "$TEST_TMP/f.data" >"$TEST_TMP/fold" || fail "tephra fold failed"
same_bytes "foreach summed == fold" "$TEST_TMP/fold" "$TEST_TMP/summed"
[ "$(wc -l <"$TEST_TMP/each.txt")" -gt 100 ] || fail "too few samples from perf_foreach_stack"
finish
