#!/usr/bin/env bash
# missing-object: a --call-graph dwarf sample through an object whose file is gone, or is
# another build than the recorded one, has no CFI to find that frame's caller with;
# libdwfl's fallback (frame pointers) then took whatever rbp held for a frame chain and
# tephra printed made-up frames (b7ace770fe30acfe [unknown]).  Now the walk ends at that
# frame, and the stack-quality block names the object.  By construction
# (junk_rbp_caller.S): main -> caller, which calls hot (libhot.so) with rbp pointing at
# junk, so every sample in hot has junk in rbp at caller's frame.  Oracle: perf script
#  - with every file in place (the premise: the whole stack, caller's frame in it);
#  - with the program gone: the same bytes (perf stops at caller's frame);
#  - with libhot.so replaced by another build (another build-id, the sampled object):
#    perf unwinds through the wrong file; tephra prints what perf prints with the file
#    gone (the sampled pc alone).
. "$TOP/tests/perf/lib.sh"
need_perf
[ "$(uname -m)" = x86_64 ] || skip "the caller is x86_64 assembly"
cd "$TEST_TMP" || exit 1
export HOME=$TEST_TMP   # no build-id cache copy to fall back on (record -N too)
D=$TOP/tests/perf-dwarf
cc -O2 -g -fPIC -shared -o libhot.so "$D/junk_rbp_hot.c" &&
	cc -O2 -g -o prog "$D/junk_rbp_main.c" "$D/junk_rbp_caller.S" -L. -lhot -Wl,-rpath,"$TEST_TMP" ||
	exit 1
record m.data -e cpu-clock -F 2000 --call-graph dwarf -- ./prog 200000000

check_script present m.data
grep -q 'caller+0x.* (.*/prog)' present.perf || fail "perf script shows no frame in caller: the premise fails"

mv prog prog.away
check_script missing m.data
grep -q 'b7ace770fe30acf' missing.tephra && fail "tephra prints the junk as a frame"
"$TEPHRA" script m.data 2>block.txt >/dev/null
grep -q "^  object missing or not the recorded one (walks end at its frame): $TEST_TMP/prog (walks: " block.txt ||
	fail "the stack-quality block does not name the missing program: $(cat block.txt)"
mv prog.away prog

mv libhot.so libhot.orig
perf script -i m.data >libmissing.perf 2>/dev/null
cc -O2 -g -fPIC -shared -o libhot.so "$D/junk_rbp_hot.c" -Wl,--build-id=0x1234567890abcdef1234567890abcdef12345678 || exit 1
for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	"$bin" script m.data >rebuilt.tephra 2>rebuilt.err || fail "$bin script failed"
	same_bytes "$bin: libhot.so of another build" libmissing.perf rebuilt.tephra
	grep -q "^  object missing or not the recorded one (walks end at its frame): $TEST_TMP/libhot.so (walks: " rebuilt.err ||
		fail "$bin: the stack-quality block does not name libhot.so: $(cat rebuilt.err)"
done
finish
