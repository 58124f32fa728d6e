#!/usr/bin/env bash
# Regenerates the README screenshots from `make demo`'s profile (needs make demo run first,
# chromium, and tests/browser/node_modules from `npm ci` there).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
folded=$top/build/demo/demo.folded
[ -s "$folded" ] || { echo "run make demo first" >&2; exit 1; }
t=$top/build/tephra
"$t" flamegraph --title "tephra demo" "$folded" -o "$tmp/flame.svg"
"$t" flamegraph --inverted --title "tephra demo (icicle)" "$folded" -o "$tmp/icicle.svg"
# "after": parse twice as slow, compress twice as fast.
awk '{ n = $NF; if ($0 ~ /;parse/) n *= 2; else if ($0 ~ /;compress/) n = int(n / 2);
       $NF = n; print }' "$folded" > "$tmp/after.folded"
"$t" diff --title "tephra demo: parse slower, compress faster" "$folded" "$tmp/after.folded" -o "$tmp/diff.svg"
cd "$top/tests/browser"
for g in flame icicle diff; do
	node check.js --screenshot "$tmp/$g.svg" "$top/docs/screenshots/$g.png" 1200 260 >/dev/null
done
ls -l "$top"/docs/screenshots/*.png
