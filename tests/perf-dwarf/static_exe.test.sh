# static_exe: a static (non-PIE) C++ executable with a lambda inlined through
# std::generate_n (the shape of KDAB perfparser's cpp-inlining recording, issue 13),
# recorded with `perf record --call-graph dwarf` during the test.
# perf 6.1 (libunwind) stops after the sampled frame in a static executable, so the
# oracle is per sample (compare_blocks.py, no unwinder disagreement allowed): perf's
# lines are ours, or a prefix of ours; the sampled frame and its inline chain
# (`generate_n<..., main(int, char**)::<lambda()> >+0x.. (inlined)`, `main+0x..`) byte for byte.
# And `tephra fold` keeps the lambda's whole name; only --compat cuts it at its `(`.
. "$TOP/tests/perf/lib.sh"
need_perf
command -v g++ >/dev/null 2>&1 || skip "g++ is not installed"
g++ -O2 -g -static -o "$TEST_TMP/generate_lambda" "$TOP/tests/perf-dwarf/generate_lambda.cpp" \
	2>"$TEST_TMP/cxx.err" || skip "no static C++ link here: $(head -n 2 "$TEST_TMP/cxx.err")"

data=$TEST_TMP/static.data
record "$data" --call-graph dwarf -- "$TEST_TMP/generate_lambda" 300
for v in "" --no-inline; do
	perf script -i "$data" $v >"$TEST_TMP/static$v.perf" 2>"$TEST_TMP/perf.err" ||
		{ fail "perf script $v failed: $(head -n 3 "$TEST_TMP/perf.err")"; finish; }
	"$TEPHRA" script -q -i "$data" $v >"$TEST_TMP/static$v.tephra" 2>"$TEST_TMP/tephra.err" ||
		{ fail "tephra script $v failed: $(head -n 3 "$TEST_TMP/tephra.err")"; finish; }
done
lambda_frame='generate_n<.*, main([^)]*)::<lambda()> >+0x[0-9a-f]* (inlined)$'
n=$(grep -c "$lambda_frame" "$TEST_TMP/static.perf")
[ "$n" -gt 0 ] || fail "perf printed no generate_n<..., main()::<lambda()> > frame (nothing tested)"
python3 "$TOP/tests/perf-dwarf/compare_blocks.py" --max-unwind-diffs 0 \
	"$TEST_TMP/static.perf" "$TEST_TMP/static.tephra" \
	"$TEST_TMP/static--no-inline.perf" "$TEST_TMP/static--no-inline.tephra" ||
	fail "tephra script differs from perf script beyond perf's shorter walks"
# ours also as a caller (of _M_gen_rand ...), where perf's walk stopped
m=$(grep -c "$lambda_frame" "$TEST_TMP/static.tephra")
[ "$m" -ge "$n" ] || fail "tephra script prints fewer lambda frames ($m) than perf ($n)"
echo "ok: lambda frame: perf $n lines, tephra $m"

"$TEPHRA" fold -q "$data" >"$TEST_TMP/static.fold" || fail "tephra fold failed"
"$TEPHRA" fold -q --compat "$data" >"$TEST_TMP/static.compat" || fail "tephra fold --compat failed"
grep -q ';generate_n<[^;]*, main([^)]*)::<lambda()> >;' "$TEST_TMP/static.fold" ||
	fail "tephra fold does not keep the whole name generate_n<..., main()::<lambda()> >"
grep -q ';generate_n<[^;(]*, main;' "$TEST_TMP/static.compat" ||
	fail "tephra fold --compat does not cut generate_n<..., main()::<lambda()> > at its ("
grep -q 'main(' "$TEST_TMP/static.compat" && fail "tephra fold --compat kept the '(' after main"
fold_invariants static "$data" "" ""
finish
