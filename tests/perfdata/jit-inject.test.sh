#!/usr/bin/env bash
# perf inject --jit (how JIT frames of Node.js, Java and .NET get names): the MMAP2
# records it adds for each jitted-PID-N.so carry the file's mode (0100644) in prot,
# which tephra once took for the first bytes of a file name (the layout of kernels
# before 3.16) and printed `[unknown] (\xa4\x81)` for every JIT frame.  Oracle: perf
# script on the same injected file, byte for byte.
set -u
. "$(dirname "$0")/lib.sh"
require_perf
command -v node >/dev/null || { echo "node is not installed"; exit 77; }
cd "$TEST_TMP" || exit 1
export HOME="$TEST_TMP"   # perf inject's build-id cache stays here
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cat >x.js <<'JS'
function f(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i) * Math.sin(i); return s; }
let t = 0; for (let k = 0; k < 200; k++) t += f(100000);
console.log(t === t ? "ok" : "nan");
JS
perf record -q -k mono -g -e cpu-clock -o j.data -- node --perf-prof x.js >/dev/null 2>&1 ||
	{ echo "perf record failed"; exit 1; }
perf inject --jit -i j.data -o j2.data 2>inject.err || { echo "perf inject --jit failed: $(head -n 2 inject.err)"; exit 1; }
perf script -i j2.data >perf.txt 2>/dev/null || { echo "perf script failed"; exit 1; }
# The premise: the loop ran jitted code, and perf named it.
n=$(grep -c 'Builtin:.*(.*/jitted-[0-9]*-[0-9]*\.so)' perf.txt)
echo "$n JIT frames named by perf script"
[ "$n" -ge 10 ] || fail "perf script shows too few named JIT frames ($n): nothing tested"
for bin in "$TEPHRA" ${TEPHRA_ASAN:+"$TEPHRA_ASAN"}; do
	[ -x "$bin" ] || continue
	"$bin" script -q -i j2.data >tephra.txt 2>tephra.err || fail "$bin script failed: $(head -n 2 tephra.err)"
	cmp -s perf.txt tephra.txt || { fail "$bin script differs from perf script:"; diff perf.txt tephra.txt | head -n 8; }
done
[ "$failures" -eq 0 ] && echo ok
exit $((failures > 0))
