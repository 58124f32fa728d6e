#!/usr/bin/env bash
# bench/trace-api.sh - speed of the C API (include/tephra/trace.h) on a real guest's
# instruction stream: tests/guests/workload.c computing fib(32) (~103 M instructions)
# runs once under qemu-riscv64 with the plugin's pc dump (pcs=FILE, kept under /tmp and
# deleted), then bench/trace_api_bench.c (linked to build/libtephra.a) feeds the dump
# through tephra_trace_step (per instruction, with its encoding; goal <= 1.5 ns) and
# through tephra_trace_charge + tephra_trace_transfer (per basic block; goal <= 5 ns per
# block).  Only the API calls are timed: thread CPU time, best of 3; peak RSS of the
# whole driver (it maps the 800 MB dump, so that is mostly the dump's page cache).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN=$TOP/build/qemu/libtephra-qemu.so
LIB=$TOP/build/libtephra.a
for c in qemu-riscv64 riscv64-linux-gnu-gcc /usr/bin/time cc; do
	command -v $c >/dev/null || { echo "trace-api.sh: $c missing, skipped"; exit 0; }
done
[ -f "$LIB" ] && [ -f "$PLUGIN" ] || { echo "trace-api.sh: build first (make)"; exit 1; }
tmp=$(mktemp -d /tmp/tephra-bench-trace-api.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
riscv64-linux-gnu-gcc -static -O2 -o wl "$TOP/tests/guests/workload.c"
cc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$TOP/include" -o drv "$TOP/bench/trace_api_bench.c" \
	"$LIB" $(pkg-config --libs libdw libelf libzstd zlib libdeflate) -liberty -lpthread -lm
N=${EMU_BENCH_FIB:-32}
qemu-riscv64 -plugin "$PLUGIN,out=live.folded,pcs=wl.pcs" ./wl $N >/dev/null 2>&1
/usr/bin/time -f %M -o rss ./drv wl wl.pcs 3 out
echo "driver peak RSS $(cat rss) KiB"
cmp -s out.step live.folded && echo "tephra_trace_step profile identical to tephra emu's" ||
	echo "tephra_trace_step profile DIFFERS from tephra emu's"
