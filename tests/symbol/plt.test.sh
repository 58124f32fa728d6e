#!/usr/bin/env bash
# PLT stubs (perf 6.1 names them foo@plt), PIE and non-PIE executables, a shared
# library of our own, weak/alias/static functions.
. "$TOP/tests/symbol/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc not installed"
cd "$TEST_TMP"
gcc -O1 -g -fno-omit-frame-pointer -shared -fPIC -o libtiny.so "$PROGS/plt_lib.c" || fail "build lib"
gcc -O1 -g -fno-omit-frame-pointer -fPIE -pie -o plt_pie "$PROGS/plt_main.c" -L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail "build pie"
gcc -O1 -g -fno-omit-frame-pointer -fno-pie -no-pie -o plt_nopie "$PROGS/plt_main.c" -L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail "build non-pie"
for exe in plt_pie plt_nopie; do
	record $exe.data ./$exe 30000000
	compare $exe.data
	# perf 6.1 names a PLT stub foo@plt, or _init+0x.. when the zero-size _init
	# (extended over .plt) is met first in its rbtree: both must match perf.
	expect_line $exe.data "(@plt|_init)\+0x[0-9a-f]+ \($TEST_TMP/$exe\)"
	expect_line $exe.data "tiny_(add|mix)\+0x[0-9a-f]+ \($TEST_TMP/libtiny.so\)"
done

# IBT: calls go through .plt.sec, which perf 6.1 does not name.
if gcc -fcf-protection=full -x c -c -o /dev/null /dev/null 2>/dev/null ||
	partial "gcc has no -fcf-protection=full: the IBT case not checked"; then
	gcc -O1 -g -fno-omit-frame-pointer -fcf-protection=full -shared -fPIC -o libtiny.so \
		"$PROGS/plt_lib.c" || fail "build ibt lib"
	gcc -O1 -g -fno-omit-frame-pointer -fcf-protection=full -Wl,-z,ibtplt -o plt_ibt \
		"$PROGS/plt_main.c" -L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail "build ibt"
	if readelf -S plt_ibt | grep -q '\.plt\.sec'; then
		record plt_ibt.data ./plt_ibt 30000000
		compare plt_ibt.data
	else
		partial "the linker made no .plt.sec: the IBT case not checked"
	fi
fi
