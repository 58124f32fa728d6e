#!/usr/bin/env bash
# A Rust program (progs/rust_user.rs) uses libtephra through a plain extern "C" block,
# built with rustc alone and the link flags of `pkg-config --libs tephra` from an
# installed DESTDIR; it prints the profile worked out by hand, collected through the
# callback.
. "$TOP/tests/install/lib.sh"
command -v rustc >/dev/null || fail "rustc is not installed (scripts/install-deps test installs Debian's)"

root=$TEST_TMP/root
install_into "$root"
export PKG_CONFIG_PATH=$root/usr/local/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
libs=$(pkg-config --libs tephra) || fail "pkg-config does not find tephra.pc"
rustc --edition 2018 -O -o rust_user "$TOP/tests/install/progs/rust_user.rs" $libs >rustc.log 2>&1 ||
	{ cat rustc.log; fail "rustc failed"; }
cat >expected <<END
version $VERSION
_start 4
_start;main 7
_start;main;work 10
END
LD_LIBRARY_PATH=$root/usr/local/lib ./rust_user >out 2>err || { cat out err; fail "the Rust program failed"; }
diff -u expected out || fail "output"
echo ok
