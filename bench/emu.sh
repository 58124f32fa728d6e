#!/usr/bin/env bash
# bench/emu.sh - figures for RISC-V guests (tephra emu / tephra trace):
#   1. plugin overhead: tests/guests/workload.c computing fib(32) (~103 M guest
#      instructions) under plain qemu-riscv64 and under tephra emu, best of 3 (goal <= 3x);
#   2. offline folding speed of a binary pc dump with tephra trace (target >= 50 M
#      instructions/s);
#   3. memory: QEMU's peak RSS with the plugin after 10 M and after ~103 M instructions
#      (the call trie grows with distinct paths, not with instructions).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=$TOP/build/tephra
PLUGIN=$TOP/build/qemu/libtephra-qemu.so
for c in qemu-riscv64 riscv64-linux-gnu-gcc /usr/bin/time; do
	command -v $c >/dev/null || { echo "emu.sh: $c missing, skipped"; exit 0; }
done
[ -x "$TEPHRA" ] && [ -f "$PLUGIN" ] || { echo "emu.sh: build first (make)"; exit 1; }
tmp=$(mktemp -d /tmp/tephra-bench-emu.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
riscv64-linux-gnu-gcc -static -O2 -o wl "$TOP/tests/guests/workload.c"
N=${EMU_BENCH_FIB:-32}

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

# Best of 3 interleaved runs, wall and CPU (user + sys, the qemu child included).
best() { # file: lines "wall cpu" -> "wall cpu", each the minimum
	awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 } END { print w, c }' "$1"
}
: >plain.t; : >emu.t
for i in 1 2 3; do
	/usr/bin/time -f '%e %U %S' -o t qemu-riscv64 ./wl $N >/dev/null
	awk '{ print $1, $2 + $3 }' t >>plain.t
	/usr/bin/time -f '%e %U %S' -o t "$TEPHRA" emu --no-svg -o wl.folded -- ./wl $N >/dev/null 2>emu.err
	awk '{ print $1, $2 + $3 }' t >>emu.t
done
read -r plain plain_cpu < <(best plain.t)
read -r emu emu_cpu < <(best emu.t)
insns=$(sed -n 's/^tephra emu: instructions \([0-9]*\),.*/\1/p' emu.err)
printf 'plugin overhead: %s guest instructions, best of 3: plain qemu %.2f s wall, %.2f s CPU; tephra emu %.2f s wall, %.2f s CPU; ratio %.1fx wall, %.1fx CPU (goal <= 3x)\n' \
	"$insns" "$plain" "$plain_cpu" "$emu" "$emu_cpu" "$(echo "$emu / $plain" | bc -l)" \
	"$(echo "$emu_cpu / $plain_cpu" | bc -l)"

qemu-riscv64 -plugin "$PLUGIN,out=dump.folded,pcs=wl.pcs" ./wl $N >/dev/null 2>&1
t0=$(now); "$TEPHRA" trace --elf wl -o trace.folded wl.pcs 2>/dev/null; t1=$(now)
off=$(secs $t0 $t1)
n=$(( $(stat -c %s wl.pcs) / 8 ))
printf 'offline pc dump: %d instructions folded in %.2f s: %.1f M instructions/s (target >= 50)\n' \
	"$n" "$off" "$(echo "$n / $off / 1000000" | bc -l)"
cmp -s trace.folded dump.folded && echo "offline profile identical to the live one" ||
	echo "offline profile DIFFERS from the live one"
rm -f wl.pcs

/usr/bin/time -f %M -o rss10 qemu-riscv64 -plugin "$PLUGIN,out=b.folded,budget=10000000" ./wl $N >/dev/null 2>&1
/usr/bin/time -f %M -o rssall qemu-riscv64 -plugin "$PLUGIN,out=a.folded" ./wl $N >/dev/null 2>&1
/usr/bin/time -f %M -o rssplain qemu-riscv64 ./wl $N >/dev/null 2>&1
printf 'memory (peak RSS of qemu): plain %s KiB; with plugin after 10 M instructions %s KiB, after %s %s KiB\n' \
	"$(cat rssplain)" "$(cat rss10)" "$insns" "$(cat rssall)"
