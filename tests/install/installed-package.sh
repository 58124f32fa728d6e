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

# record: perf on a program that spends its CPU time in burn()
cat >burn.c <<'C'
#include "cpu_ms.h"
__attribute__((noinline)) static double burn(void)
{
	volatile double x = 0;
	double end = cpu_ms() + 300;
	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x += i * 0.5;
	return x;
}
int main(void) { return burn() < 0; }
C
gcc -O1 -g -fno-omit-frame-pointer -I"$TOP/tests/workloads" -o burn burn.c || fail "cannot build burn"
"$T" record -- ./burn >record.out 2>&1 || { cat record.out; fail "tephra record"; }
grep -q 'burn' flame.svg || fail "flame.svg does not show burn"
"$T" fold perf.data 2>/dev/null | grep -q '^burn;.*main;burn [0-9]*$' || fail "tephra fold: no main;burn stack"

# grind: Valgrind with the packaged tool
gcc -O1 -g -fno-inline -fno-optimize-sibling-calls -fno-omit-frame-pointer \
	-o calls "$TOP/tests/grind/progs/calls.c" || fail "cannot build the grind program"
"$T" grind --no-svg -o calls.folded ./calls 2>grind.err || { cat grind.err; fail "tephra grind"; }
grep -qxF "calls;main;b;work 4002" calls.folded || { cat calls.folded; fail "grind: calls;main;b;work 4002 missing"; }

# emu: qemu-riscv64 with the packaged plugin
riscv64-linux-gnu-gcc -static -g -nostdlib -march=rv64gc -mabi=lp64d -o guest \
	"$TOP/tests/guests/calls.S" || fail "cannot build the RISC-V guest"
"$T" emu --no-svg -o guest.folded -- ./guest 2>emu.err || { cat emu.err; fail "tephra emu"; }
grep -qxF "_start;main;rec;rec;rec 7" guest.folded || { cat guest.folded; fail "emu profile"; }

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
