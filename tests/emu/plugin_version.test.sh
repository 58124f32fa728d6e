#!/usr/bin/env bash
# The plugin declares QEMU plugin API version 1 (QEMU 7.2) and refuses, with a clear
# message, a QEMU that implements another version or is not a RISC-V user-mode QEMU.
# A small host program plays QEMU: it loads the plugin and calls qemu_plugin_install
# with the qemu_info_t layout of the documented API.
. "$TOP/tests/emu/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"
cat >fakeqemu.c <<'C'
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
typedef struct {
	const char *target_name;
	struct { int min, cur; } version;
	bool system_emulation;
	union { struct { int smp_vcpus, max_vcpus; } system; };
} qemu_info_t;
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
	if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 2; }
	int *version = dlsym(h, "qemu_plugin_version");
	int (*install)(uint64_t, const qemu_info_t *, int, char **) = dlsym(h, "qemu_plugin_install");
	if (!version || !install) { fprintf(stderr, "symbols missing\n"); return 2; }
	printf("version %d\n", *version);
	qemu_info_t info = { argv[2], { 0, atoi(argv[3]) }, argv[4][0] == '1', { { 1, 1 } } };
	char *args[] = { "bogus" };
	return install(1, &info, argc > 5, args) == -1 ? 10 : 11;
}
C
sed -i 's/#include <stdio.h>/#include <stdio.h>\n#include <stdlib.h>/' fakeqemu.c
gcc -o fakeqemu fakeqemu.c -ldl || fail "cannot build the fake QEMU"
./fakeqemu "$PLUGIN" riscv64 2 0 >out 2>err; rc=$?
grep -qx 'version 1' out || { cat out err; fail "plugin does not declare API version 1"; }
[ $rc = 10 ] || { cat err; fail "API version 2 accepted (rc $rc)"; }
grep -q 'built for QEMU plugin API version 1 (QEMU 7.2), but this QEMU implements version 2' err ||
	{ cat err; fail "version mismatch message"; }
./fakeqemu "$PLUGIN" x86_64 1 0 >out 2>err; [ $? = 10 ] || fail "x86_64 target accepted"
grep -q 'only RISC-V user-mode guests' err || { cat err; fail "target message"; }
./fakeqemu "$PLUGIN" riscv64 1 1 >out 2>err; [ $? = 10 ] || fail "system emulation accepted"
./fakeqemu "$PLUGIN" riscv64 1 0 x >out 2>err; [ $? = 10 ] || fail "bad argument accepted"
grep -q "is not key=value" err || { cat err; fail "argument message"; }
echo ok
