#!/usr/bin/env bash
# make install into a DESTDIR lays out what docs/install.md says; the installed tree,
# moved elsewhere, is a working tephra: grind and emu find their Valgrind tool and
# QEMU plugin relative to the binary (/proc/self/exe), run from a directory outside the
# source tree, with the profiles worked out by hand for tests/grind/progs/calls.c and
# tests/guests/calls.S.  make uninstall removes every file it installed.
. "$TOP/tests/install/lib.sh"
command -v valgrind >/dev/null || fail "valgrind is not installed (scripts/install-deps test)"
command -v qemu-riscv64 >/dev/null || fail "qemu-riscv64 is not installed (scripts/install-deps test)"
command -v riscv64-linux-gnu-gcc >/dev/null || fail "riscv64-linux-gnu-gcc is not installed"
platform=$(pkg-config --variable=platform valgrind)

root=$TEST_TMP/root
install_into "$root"
P=$root/usr/local
for f in bin/tephra lib/tephra/libtephra-qemu.so "lib/tephra/grind/tephragrind-$platform" \
	lib/tephra/grind/VERSION lib/libtephra.a "lib/libtephra.so.$VERSION" lib/pkgconfig/tephra.pc \
	include/tephra/tephra.h include/tephra/trace.h include/tephra/grind.h include/tephra/version.h \
	share/man/man1/tephra.1 share/bash-completion/completions/tephra; do
	[ -f "$P/$f" ] || fail "make install did not install $f"
done
for cmd in $COMMANDS; do
	[ -f "$P/share/man/man1/tephra-$cmd.1" ] || fail "no man page tephra-$cmd.1 installed"
done
[ "$(readlink "$P/lib/libtephra.so.${VERSION%%.*}")" = "libtephra.so.$VERSION" ] || fail "soname link"
[ "$(readlink "$P/lib/libtephra.so")" = "libtephra.so.${VERSION%%.*}" ] || fail "libtephra.so link"
for l in "vgpreload_core-$platform.so" default.supp; do
	[ -L "$P/lib/tephra/grind/$l" ] && [ -e "$P/lib/tephra/grind/$l" ] ||
		fail "lib/tephra/grind/$l is not a link to Valgrind's own file"
done
grep -qx "prefix=/usr/local" "$P/lib/pkgconfig/tephra.pc" || fail "tephra.pc: prefix is not the install PREFIX"
grep -qx "Version: $VERSION" "$P/lib/pkgconfig/tephra.pc" || fail "tephra.pc: version"

# Moved: no path of the install, the build tree or the DESTDIR is baked into the binary.
mkdir moved work
cp -a "$P" moved/tephra
T=$TEST_TMP/moved/tephra/bin/tephra
cd work || exit 1
unset TEPHRA_GRIND_LIB TEPHRA_QEMU_PLUGIN
"$T" --version >version.txt || fail "installed tephra --version"
head -n 1 version.txt | grep -qx "tephra $VERSION" || { cat version.txt; fail "--version"; }

. "$TOP/tests/install/installed_checks.sh"
installed_grind_emu "$T" installed

# Without its companions the moved binary says where it looked: beside itself, never
# in the build tree.
mv ../moved/tephra/lib/tephra ../moved/tephra/lib/hidden
"$T" grind --no-svg ./calls 2>err && fail "grind ran without its tool"
grep -q "moved/tephra/bin/../lib/tephra/grind" err || { cat err; fail "grind's message does not name the installed place"; }
grep -q "$TOP" err && { cat err; fail "grind looked into the build tree"; }
"$T" emu -- ./guest 2>err && fail "emu ran without its plugin"
grep -q "moved/tephra/bin/../lib/tephra/libtephra-qemu.so" err || { cat err; fail "emu's message does not name the installed place"; }

make -s -C "$TOP" uninstall DESTDIR="$root" >uninstall.log 2>&1 || { cat uninstall.log; fail "make uninstall"; }
left=$(find "$root" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo ok
