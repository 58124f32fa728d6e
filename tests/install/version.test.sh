#!/usr/bin/env bash
# tephra --version: the version of the VERSION file, and what the build used, each
# checked against its own source: the Valgrind version `valgrind --version` prints
# (and the tool's VERSION file), the QEMU plugin API version the built plugin exports
# (qemu_plugin_version, read by dlopen), the elfutils version pkg-config reports.
# The generated header and tephra.pc carry the same version.
. "$TOP/tests/install/lib.sh"
command -v valgrind >/dev/null || fail "valgrind is not installed"
"$TEPHRA" --version >version.txt || fail "tephra --version: exit status $?"
cat version.txt
sed -n 1p version.txt | grep -qx "tephra $VERSION" || fail "first line is not 'tephra $VERSION'"

vg=$(valgrind --version | sed 's/^valgrind-//')
grep -qx "  tephra grind: Valgrind $vg ($(pkg-config --variable=platform valgrind) tool)" version.txt ||
	fail "the Valgrind line does not name valgrind $vg"
[ "$(cat "$TOP/build/grind/lib/VERSION")" = "valgrind-$vg" ] || fail "the tool's VERSION file"

cat >plugin_api.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
	int *v = h ? dlsym(h, "qemu_plugin_version") : NULL;
	if (!v) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	printf("%d\n", *v);
	return argc < 2;
}
C
gcc -o plugin_api plugin_api.c -ldl || fail "cannot build the plugin reader"
api=$(./plugin_api "$TOP/build/qemu/libtephra-qemu.so") || fail "cannot read the plugin's API version"
grep -qx "  tephra emu:   QEMU TCG plugin API version $api" version.txt || fail "the QEMU line does not say API version $api"

grep -qx "  elfutils:     $(pkg-config --modversion libdw)" version.txt || fail "the elfutils line"

IFS=. read -r major minor patch <<<"$VERSION"
h=$TOP/build/include/tephra/version.h
grep -q "^#define TEPHRA_VERSION_MAJOR $major$" "$h" && grep -q "^#define TEPHRA_VERSION_MINOR $minor$" "$h" &&
	grep -q "^#define TEPHRA_VERSION_PATCH $patch$" "$h" && grep -q "^#define TEPHRA_VERSION_STRING \"$VERSION\"$" "$h" ||
	fail "$h does not carry $VERSION"
echo ok
