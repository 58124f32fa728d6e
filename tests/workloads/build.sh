#!/usr/bin/env bash
# Builds the bundled workloads into DIR (default: $TEST_TMP/workloads), with frame
# pointers so `perf record -g` captures whole user stacks.  Prints nothing on success.
# The Rust workload is built only when rustc is present.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out=${1:-${TEST_TMP:?}/workloads}
mkdir -p "$out"
FP="-O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
cc $FP -o "$out/recurse" "$src/recurse.c"
cc $FP -o "$out/threads" "$src/threads.c" -lpthread
cc $FP -o "$out/offcpu" "$src/offcpu.c" -lpthread
cc $FP -o "$out/lockwait" "$src/lockwait.c" -lpthread
cc $FP -fno-optimize-sibling-calls -o "$out/phases" "$src/phases.c"
cc $FP -o "$out/pingpong" "$src/pingpong.c" -lpthread
cc $FP -o "$out/forkexec" "$src/forkexec.c"
cc $FP -o "$out/jit" "$src/jit.c"
cc $FP -fno-optimize-sibling-calls -o "$out/deep" "$src/deep.c"
c++ $FP -o "$out/templates" "$src/templates.cpp"
if command -v rustc >/dev/null 2>&1; then
	rustc -C opt-level=1 -C force-frame-pointers=yes -o "$out/spin" "$src/spin.rs" 2>/dev/null ||
		rm -f "$out/spin"
fi
