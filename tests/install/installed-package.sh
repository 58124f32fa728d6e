#!/usr/bin/env bash
# The Debian packages as a user gets them: run as root on a machine where tephra,
# libtephra0 and libtephra-dev were installed with apt (scripts/fresh-check does it in its
# fresh Debian 12 root after make check). Not a tests/run-all test: it needs the packages
# installed system-wide. From a directory outside the source tree, /usr/bin/tephra records,
# grinds and emulates real programs, and a C and a Rust program build against the library
# through pkg-config alone.
# Usage: tests/install/installed-package.sh SOURCE_TREE   (exit 0: every step worked)
set -u
TOP=$(cd "${1:?usage: installed-package.sh SOURCE_TREE}" && pwd)
export LC_ALL=C
fail() { echo "installed-package: FAIL: $*"; exit 1; }
T=/usr/bin/tephra
[ -x "$T" ] || fail "$T is not installed"
VERSION=$(cat "$TOP/VERSION")
work=$(mktemp -d) && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
# nothing may come from a build tree
unset TEPHRA_GRIND_LIB TEPHRA_QEMU_PLUGIN

"$T" --version | head -n 1 | grep -qx "tephra $VERSION" || fail "tephra --version"
[ "$(dpkg-query -W -f='${Version}' tephra)" = "$VERSION" ] || fail "the package's version is not $VERSION"
man -w tephra-record >/dev/null 2>&1 || fail "no tephra-record man page"

# record (perf on a program that spends its CPU time in burn()), grind and emu
. "$TOP/tests/install/installed_checks.sh"
installed_record "$T" installed
installed_grind_emu "$T" installed

# the library, found by pkg-config in the system's paths only
cc -std=c11 -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags tephra) -o user \
	"$TOP/tests/install/progs/trace_user.c" $(pkg-config --libs tephra) || fail "C program: build"
./user >c.out || { cat c.out; fail "C program: run"; }
grep -qx "_start;main;work 10" c.out || fail "C program: output"
if command -v rustc >/dev/null; then
	rustc --edition 2018 -O -o rust_user "$TOP/tests/install/progs/rust_user.rs" \
		$(pkg-config --libs tephra) >rustc.log 2>&1 || { cat rustc.log; fail "Rust program: build"; }
	./rust_user >rust.out || fail "Rust program: run"
	grep -qx "_start;main;work 10" rust.out || fail "Rust program: output"
fi
echo "installed-package: tephra $VERSION from the .deb: record, fold, grind, emu, C and Rust through pkg-config work"
