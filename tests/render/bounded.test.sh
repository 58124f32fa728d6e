#!/usr/bin/env bash
# Bounded: the input is streamed into a tree, so 200 MiB of folded text with few unique
# stacks needs little memory; 200,000 unique stacks give an SVG that only holds frames
# wider than --minwidth (and an SVG size bounded by what can be seen).
set -eu
d=$TEST_TMP
fail() { echo "FAIL: $*"; exit 1; }
maxrss_kb() { # command... -> peak RSS in KiB of the child
	python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
sys.exit(r.returncode) if r.returncode else print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
# 2,000,000 lines over 8 stacks, ~200 MiB, generated on the fly through a pipe.
python3 -c 'import sys
lines = [("main;work;step%d;" % i) + "x" * 80 + " 1\n" for i in range(8)]
block = "".join(lines) * 1000
for _ in range(250): sys.stdout.write(block)' > "$d/big.folded"
size=$(stat -c %s "$d/big.folded")
rss=$(maxrss_kb "$TEPHRA" flamegraph "$d/big.folded" -o "$d/big.svg")
echo "input $((size >> 20)) MiB, peak RSS $((rss / 1024)) MiB"
[ "$rss" -lt $((40 * 1024)) ] || fail "peak RSS ${rss} KiB for a ${size}-byte input"
grep -q '<title>all (2000000 samples, 100%)' "$d/big.svg" || fail "total"
# 200,000 unique stacks of weight 1: no frame but the shared ones is 0.1 px wide.
python3 -c 'import sys
for i in range(200000): sys.stdout.write("root;f%06d;g 1\n" % i)' > "$d/wide.folded"
"$TEPHRA" flamegraph "$d/wide.folded" -o "$d/wide.svg"
frames=$(grep -c '^<g o=' "$d/wide.svg")
[ "$frames" = 2 ] || fail "$frames frames drawn, want all and root only"
"$TEPHRA" flamegraph --minwidth 0 "$d/wide.folded" -o "$d/all.svg"
frames=$(grep -c '^<g o=' "$d/all.svg")
[ "$frames" = 400002 ] || fail "--minwidth 0 drew $frames frames, want 400002"
echo ok
