#!/usr/bin/env bash
# End to end: SVGs made by tephra, opened in headless Chromium (driven by playwright-core),
# checked for widths, zoom, search, URL state, escaping and diff colours (tests/browser/check.js).
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ -x /usr/bin/chromium ] || { echo "skip: chromium is not installed (scripts/install-deps test)"; exit 77; }
command -v npm >/dev/null || { echo "skip: npm is not installed"; exit 77; }
if [ ! -d "$here/node_modules/playwright-core" ]; then
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) ||
		{ echo "skip: npm ci could not install playwright-core"; exit 77; }
fi
d=$TEST_TMP
# 100 samples; widths in px are worked out in check.js.
printf '%s\n' 'main;alpha;leaf 30' 'main;alpha 10' 'main;beta;leaf 20' 'main;beta;gamma 20' \
	'other 20' > "$d/plain.folded"
"$TEPHRA" flamegraph "$d/plain.folded" -o "$d/plain.svg" || exit 1
"$TEPHRA" flamegraph --inverted "$d/plain.folded" -o "$d/icicle.svg" || exit 1
printf 'main;a<b&"c'"'"' 5\nmain;bad\377byte 5\nmain;\303\274n\303\257 5\n' > "$d/names.folded"
"$TEPHRA" flamegraph "$d/names.folded" -o "$d/names.svg" || exit 1
printf '%s\n' 'main;x;grows 20' 'main;x;shrinks 50' 'main;x;same 30' > "$d/before.folded"
printf '%s\n' 'main;x;grows 60' 'main;x;shrinks 10' 'main;x;same 30' > "$d/after.folded"
"$TEPHRA" diff "$d/before.folded" "$d/after.folded" -o "$d/diff.svg" || exit 1
cd "$here" && node check.js "$d"
