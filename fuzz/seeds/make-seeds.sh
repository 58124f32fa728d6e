#!/usr/bin/env bash
# Remakes the committed seed corpora of fuzz/corpus/ and the objects of fuzz/root/
# (run as root from the repository root: perf records kernel tracepoints).  The seeds are
# real outputs of the machine's perf, qemu and the project's own tests, kept small.
set -euo pipefail
top=$(pwd)
c=$top/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$c"/{perf_reader,perf_pipeline,trace_format,folded,script_text,qemu_log,pc_dump,elf}
mkdir -p /tmp/tephra-fuzz
gcc -g -O1 -static -nostdlib -fno-omit-frame-pointer -fasynchronous-unwind-tables \
	-fno-stack-protector -Wl,--build-id -Wl,--eh-frame-hdr -o fuzz/root/tmp/tephra-fuzz/prog fuzz/seeds/prog.c
riscv64-linux-gnu-gcc -static -g -nostdlib -march=rv64gc -mabi=lp64d -o fuzz/root/guest \
	tests/guests/calls.S
# the recordings name the program by the path it ran at
cp fuzz/root/tmp/tephra-fuzz/prog /tmp/tephra-fuzz/prog
p=/tmp/tephra-fuzz/prog
rec() { # NAME perf-record-options...
	local name=$1; shift
	perf record -q -o "$tmp/$name" "$@" -- $p 2>/dev/null >/dev/null
	cp "$tmp/$name" "$c/perf_pipeline/$name"
	cp "$tmp/$name" "$c/perf_reader/$name"
}
rec fp -c 2000000 -g
rec dwarf -c 4000000 --call-graph dwarf,512
rec lbr-less-plain -c 1000000 -e cpu-clock
rec zstd -c 4000000 -g -z
rec tracepoint -e syscalls:sys_enter_exit_group -e cpu-clock -c 8000000 -g
perf record -q -c 4000000 -g -o - -- $p 2>/dev/null >"$tmp/pipe"
cp "$tmp/pipe" "$c/perf_pipeline/pipe"; cp "$tmp/pipe" "$c/perf_reader/pipe"
# crafted bombs (tests/hostile/mkperf.py, docs/hostile.md): zstd inflating 64 MiB and
# 1 GiB past the recording's mmap size, 256 attrs (the id map), JIT memory
for seed in "bomb 64 bomb-64m" "bomb 1024 bomb-1g" "attrs 256 attrs-256" "jit 4242 jit-anon"; do
	set -- $seed
	python3 tests/hostile/mkperf.py "$1" "$2" "$tmp/$3"
	cp "$tmp/$3" "$c/perf_pipeline/$3"; cp "$tmp/$3" "$c/perf_reader/$3"
done
# the TRACING_DATA section of the tracepoint recording, alone
python3 fuzz/seeds/tracing_data.py "$tmp/tracepoint" "$c/trace_format/tracing_data"
cp /sys/kernel/tracing/events/sched/sched_switch/format "$c/trace_format/sched_switch.format" 2>/dev/null ||
	cp /sys/kernel/debug/tracing/events/sched/sched_switch/format "$c/trace_format/sched_switch.format"
# perf script text and folded text of the same recordings, as perf and tephra print them
perf script -i "$tmp/fp" 2>/dev/null | head -c 3000 >"$c/script_text/fp"
perf script -i "$tmp/dwarf" -F+srcline 2>/dev/null | head -c 3000 >"$c/script_text/dwarf-srcline"
perf script -i "$tmp/tracepoint" 2>/dev/null | head -c 3000 >"$c/script_text/tracepoint"
"$top/build/tephra" fold "$tmp/fp" >"$c/folded/fp"
"$top/build/tephra" fold --compat --kernel "$tmp/dwarf" >"$c/folded/dwarf-compat"
printf 'a;b;c 10 12\na;b 3 0\na;d 0 5\n' >"$c/folded/two-columns"
# a QEMU exec log of the guest, and the same pcs as a pc dump
(cd "$tmp" && qemu-riscv64 -singlestep -d exec,nochain -D guest.log "$top/fuzz/root/guest" >/dev/null 2>&1 </dev/null || true)
cp "$tmp/guest.log" "$c/qemu_log/calls.log"
python3 - "$tmp/guest.log" "$c/pc_dump/calls.pcs" <<'PY'
import re, struct, sys
pcs = [int(m.group(1), 16) for m in re.finditer(r'Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/', open(sys.argv[1]).read())]
open(sys.argv[2], 'wb').write(b''.join(struct.pack('<Q', p) for p in pcs))
PY
# objects: the guest, the sampled program, and a shared object with DWARF 5
cp fuzz/root/guest "$c/elf/guest-riscv"
cp fuzz/root/tmp/tephra-fuzz/prog "$c/elf/prog-x86_64"
gcc -shared -fPIC -g -O1 -gdwarf-5 -nostdlib -o "$c/elf/prog.so" fuzz/seeds/prog.c -Wl,--build-id
rm -f /tmp/tephra-fuzz/prog
