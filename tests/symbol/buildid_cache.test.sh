#!/usr/bin/env bash
# A binary rebuilt differently (then deleted) after recording: perf names its frames
# from the copy perf record left in the build-id cache; so must we.  Then with the cache emptied
# perf can name nothing in it (build-id mismatch): neither may we.
. "$TOP/tests/symbol/lib.sh"
need_perf
cd "$TEST_TMP"
gcc -O1 -g -fno-omit-frame-pointer -shared -fPIC -o libtiny.so "$PROGS/plt_lib.c" || fail "build lib"
gcc -O1 -g -fno-omit-frame-pointer -o prog "$PROGS/plt_main.c" -L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail build
record prog.data ./prog 20000000
# rebuild: other code, other layout, other build-id
gcc -O0 -g -DREBUILT -o prog "$PROGS/cxx_templates.cpp" -x none -lstdc++ 2>/dev/null ||
	gcc -O0 -o prog "$PROGS/syscalls.c" || fail rebuild
compare prog.data
expect_line prog.data "(weak_work|local_work|main)\+0x[0-9a-f]+ \($TEST_TMP/prog\)"
# deleted after recording: still named from the cache
rm -f prog
compare prog.data
expect_line prog.data "(weak_work|local_work|main)\+0x[0-9a-f]+ \($TEST_TMP/prog\)"
# without the cached copy
rm -rf "$BID/.build-id" "$BID$TEST_TMP"
compare prog.data
grep -Eq "\[unknown\] \($TEST_TMP/prog\)" prog.data.script || fail "perf still named the rebuilt binary"
