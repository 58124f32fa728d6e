#!/usr/bin/env bash
# perf-multi.sh - several programs in one DWARF recording: an interpreter (Debian's
# python3 running tests/workloads/interp.py), a compiler (gcc -O2 of a generated C file
# of a few thousand lines) and a compressor (xz -9 of 8 MB of binaries) running at once
# under one `perf record --call-graph dwarf -F 1000` until it holds BENCH_MULTI_SAMPLES
# samples (10000); the compiler and the compressor run again and again while the
# interpreter runs.  Then wall time, CPU time and peak RSS of `perf script`, `tephra
# script` and `tephra fold`, with ratios, and how tephra's output compares with perf's.
#
# The recording is cached in $TEPHRA_BENCH_DIR (default /tmp/tephra-bench); delete it to
# re-record.  Environment: TEPHRA (default build/tephra), BENCH_MULTI_SAMPLES (10000),
# BENCH_RUNS (3).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TEPHRA=${TEPHRA:-$TOP/build/tephra}
DIR=${TEPHRA_BENCH_DIR:-/tmp/tephra-bench}
WANT=${BENCH_MULTI_SAMPLES:-10000}
RUNS=${BENCH_RUNS:-3}
data=$DIR/perf-multi.data
export LC_ALL=C
PY=/usr/bin/python3 # Debian's: a shim (pyenv) would add its own shell processes

command -v perf >/dev/null || { echo "perf-multi: perf is not installed, skipped"; exit 0; }
for t in "$PY" gcc xz; do
	command -v "$t" >/dev/null || { echo "perf-multi: $t is not installed, skipped"; exit 0; }
done
[ -x "$TEPHRA" ] || { echo "perf-multi: $TEPHRA is not built (make)"; exit 1; }
mkdir -p "$DIR/multi"

. "$TOP/bench/lib/perf_bench.sh"

# the compiler's input: functions with loops, switches and inlinable helpers
if [ ! -s "$DIR/multi/gen.c" ]; then
	"$PY" - "$DIR/multi/gen.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <stddef.h>\n")
    for i in range(100):
        f.write("static inline unsigned h%d(unsigned x) { return (x * %du) ^ (x >> %d); }\n"
                % (i, 2654435761 + 2 * i, 1 + i % 13))
        f.write("unsigned f%d(const unsigned *v, size_t n) {\n  unsigned s = %d;\n" % (i, i))
        f.write("  for (size_t k = 0; k < n; k++) {\n    switch ((v[k] + %d) %% 8) {\n" % i)
        for c in range(8):
            f.write("    case %d: s += h%d(v[k] + %d); break;\n" % (c, i, c * 7 + i))
        f.write("    }\n    if (s %% %d == 0) s ^= f%d(v, k / 2);\n  }\n  return s;\n}\n"
                % (97 + i, max(i - 1, 0)) if i else "    }\n  }\n  return s;\n}\n")
PY
fi
# the compressor's input: binaries, as they are on this machine
[ -s "$DIR/multi/blob" ] || cat /usr/bin/perf "$TEPHRA" /usr/bin/* 2>/dev/null | head -c 8M >"$DIR/multi/blob"

record_samples "$data" "$WANT" perf-multi "--call-graph dwarf -F 1000 -e cpu-clock" "
	'$PY' '$TOP/tests/workloads/interp.py' \$MS & p=\$!
	(while kill -0 \$p 2>/dev/null; do gcc -O2 -g -c -o /dev/null '$DIR/multi/gen.c'; done) &
	(while kill -0 \$p 2>/dev/null; do xz -9 -T1 -c '$DIR/multi/blob' >/dev/null; done) &
	wait"
n=$(nr_samples "$data")
echo "perf-multi: $data: $n samples, $(du -m "$data" | cut -f1) MB"

perf_bench "$data" "$n" multi ""
