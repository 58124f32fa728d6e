#!/usr/bin/env bash
# A third-party C program (progs/trace_user.c) builds against an installed tephra with
# nothing but `pkg-config tephra` (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR pointing
# into the DESTDIR), linked to libtephra.so and, with --static, to libtephra.a; both
# runs give the profile worked out by hand, through the FILE * and the callback calls,
# report the version of the VERSION file, and print nothing on stderr.
. "$TOP/tests/install/lib.sh"
command -v pkg-config >/dev/null || fail "pkg-config is not installed"

root=$TEST_TMP/root
install_into "$root"
export PKG_CONFIG_PATH=$root/usr/local/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
pkg-config --exists tephra || fail "pkg-config does not find tephra.pc"
[ "$(pkg-config --modversion tephra)" = "$VERSION" ] || fail "pkg-config --modversion tephra"

cc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags tephra) \
	-o user_shared "$TOP/tests/install/progs/trace_user.c" $(pkg-config --libs tephra) ||
	fail "cannot build against libtephra.so"
readelf -d user_shared | grep -q 'NEEDED.*\[libtephra\.so\.0\]' || fail "not linked to libtephra.so.0"
# Static: libtephra.a, then the libraries its Libs.private names.
cc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags tephra) \
	-o user_static "$TOP/tests/install/progs/trace_user.c" $(pkg-config --libs-only-L tephra) \
	-Wl,-Bstatic -ltephra -Wl,-Bdynamic $(pkg-config --static --libs-only-l tephra | sed 's/-ltephra//') ||
	fail "cannot build against libtephra.a"
readelf -d user_static | grep -q 'libtephra' && fail "the static build still needs libtephra.so"

cat >expected <<END
version $VERSION
_start 4
_start;main 7
_start;main;work 10
instructions 21, calls 2, returns 2, tail calls 0, underflows 0, non-local pops 0, signals 0
END
LD_LIBRARY_PATH=$root/usr/local/lib ./user_shared >out 2>err || { cat out err; fail "the shared build failed"; }
diff -u expected out || fail "shared build: output"
[ ! -s err ] || { cat err; fail "the library printed on stderr"; }
./user_static >out 2>err || { cat out err; fail "the static build failed"; }
diff -u expected out || fail "static build: output"
[ ! -s err ] || { cat err; fail "the library printed on stderr"; }
echo ok
