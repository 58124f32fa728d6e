#!/usr/bin/env bash
# tephra fold on a DWARF recording whose hot loop is two inlined functions deep:
#  - default: as `perf script | stackcollapse-perf.pl` (oracle: tests/perf/collapse.py on
#    the machine's perf script text): perf prints the inlined functions as "(inlined)"
#    lines and the script folds them like any frame, so ";work;step;mix" appears;
#  - --inline: the same stacks with the inlined functions marked _[i] (oracle: perf
#    script's text with each "(inlined)" line's symbol given _[i], then collapse.py);
#  - --srcline: the leaf carries the source line of the hot loop (the line marked
#    HOT LINE in inlines.c, found by grep);
#  - --from-text: perf script text folded by tephra equals the oracle too;
#  - the invariants of tests/perf/lib.sh fold_invariants, with each of these options.
. "$TOP/tests/perf/lib.sh"
need_perf
cc -O2 -g -o "$TEST_TMP/inlines" "$TOP/tests/fold-dwarf/inlines.c" || exit 1
# From main: no sample of the dynamic loader (its aliases are the symbol module's tests).
# Not -D 20, a wall-time wait: under load perf switched the events on after the ~70 ms of
# CPU the workload needs, and nothing was recorded.  Now all its samples are work's hot
# loop, by construction, and perf names mix (inlined) in them.
record_from_main "$TEST_TMP/inl.data" --call-graph dwarf -- "$TEST_TMP/inlines" 1000000
perf script -i "$TEST_TMP/inl.data" 2>/dev/null >"$TEST_TMP/inl.txt"
grep -q ' mix+0x[0-9a-f]* (inlined)$' "$TEST_TMP/inl.txt" ||
	{ echo "FAIL: perf script prints no inlined mix frame"; exit 1; }

python3 "$HERE/collapse.py" <"$TEST_TMP/inl.txt" >"$TEST_TMP/default.expected"
"$TEPHRA" fold -q --compat "$TEST_TMP/inl.data" >"$TEST_TMP/default.fold" || fail "tephra fold failed"
same_bytes "default" "$TEST_TMP/default.expected" "$TEST_TMP/default.fold"
grep -q ';work;step;mix ' "$TEST_TMP/default.fold" || fail "default: no ;work;step;mix stack"

sed -E 's/^(\s+[0-9a-f]+ [^ ]+)(\+0x[0-9a-f]+ \(inlined\))$/\1_[i]\2/' "$TEST_TMP/inl.txt" |
	python3 "$HERE/collapse.py" >"$TEST_TMP/inline.expected"
"$TEPHRA" fold -q --compat --inline "$TEST_TMP/inl.data" >"$TEST_TMP/inline.fold" || fail "tephra fold --inline failed"
same_bytes "--inline" "$TEST_TMP/inline.expected" "$TEST_TMP/inline.fold"
grep -q ';work;step_\[i\];mix_\[i\] ' "$TEST_TMP/inline.fold" || fail "--inline: no ;work;step_[i];mix_[i] stack"

hot=$(grep -n 'HOT LINE' "$TOP/tests/fold-dwarf/inlines.c" | cut -d: -f1)
"$TEPHRA" fold -q --srcline "$TEST_TMP/inl.data" >"$TEST_TMP/srcline.fold" || fail "tephra fold --srcline failed"
top=$(sort -t' ' -k2,2nr "$TEST_TMP/srcline.fold" | head -n 1)
echo "--srcline, heaviest stack: $top"
case $top in
*";mix:inlines.c:$hot "*) echo "ok: --srcline" ;;
*) fail "--srcline: the heaviest stack does not end in mix:inlines.c:$hot" ;;
esac

"$TEPHRA" fold --from-text "$TEST_TMP/inl.txt" >"$TEST_TMP/text.fold" 2>"$TEST_TMP/text.err" || fail "--from-text failed"
same_bytes "--from-text" "$TEST_TMP/default.expected" "$TEST_TMP/text.fold"
"$TEPHRA" fold --from-text - <"$TEST_TMP/inl.txt" >"$TEST_TMP/text-stdin.fold" || fail "--from-text - failed"
same_bytes "--from-text -" "$TEST_TMP/default.expected" "$TEST_TMP/text-stdin.fold"
"$TEPHRA" fold --from-text --inline "$TEST_TMP/inl.txt" >/dev/null 2>&1 && fail "--from-text --inline accepted"
fold_invariants inl "$TEST_TMP/inl.data" "" ""
fold_invariants inl-inline "$TEST_TMP/inl.data" - "" --inline
fold_invariants inl-srcline "$TEST_TMP/inl.data" - "" --srcline
if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" fold -q --inline --srcline "$TEST_TMP/inl.data" >/dev/null 2>"$TEST_TMP/asan.err" ||
		fail "ASan: $(head -n 5 "$TEST_TMP/asan.err")"
fi
finish
