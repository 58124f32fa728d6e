#!/usr/bin/env bash
# tephra flamegraph on hand-made folded input: frame geometry and titles worked out by
# hand (1200 px image, 1180 px plot from x=10, 16 px frames), every option accepted and
# visible in the SVG, well-formed XML for awkward names, stdin input, consistent palette.
set -eu
d=$TEST_TMP
fail() { echo "FAIL: $*"; exit 1; }
wellformed() { python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" || fail "$1 is not well-formed XML"; }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
hasnt() { ! grep -qF -- "$2" "$1" || fail "$1 has: $2"; }

printf '%s\n' 'main;a 1' 'main;b;c 2' 'z 1' > "$d/s.folded"
for t in "$TEPHRA" "$TEPHRA_ASAN"; do
	"$t" flamegraph "$d/s.folded" -o "$d/s.svg"
	wellformed "$d/s.svg"
	# 4 samples, 295 px each; 4 levels: height = 4*16 + 36 + 34 = 134; root at y = 85.
	has "$d/s.svg" 'width="1200" height="134"'
	has "$d/s.svg" '<title>all (4 samples, 100%)</title><rect x="10.0" y="85.0" width="1180.0" height="15.0"'
	has "$d/s.svg" '<title>main (3 samples, 75.00%)</title><rect x="10.0" y="69.0" width="885.0"'
	has "$d/s.svg" '<title>c (2 samples, 50.00%)</title><rect x="305.0" y="37.0" width="590.0"'
	has "$d/s.svg" '<title>z (1 samples, 25.00%)</title><rect x="895.0" y="69.0" width="295.0"'
	[ "$(grep -c '^<g o=' "$d/s.svg")" = 6 ] || fail "6 frames expected"
	! grep -q 'http[s]*://[^w]' "$d/s.svg" || fail "external reference in the SVG"
done

# Standard input, and options that show in the SVG.
"$TEPHRA" flamegraph --title 'T<1>' --subtitle 'sub&' --width 600 --height 20 --fontsize 10 \
	--countname bytes --nametype 'Func:' --notes 'n"1' --colors mem --hash < "$d/s.folded" > "$d/o.svg"
wellformed "$d/o.svg"
has "$d/o.svg" '>T&lt;1&gt;</text>'
has "$d/o.svg" '>sub&amp;</text>'
has "$d/o.svg" '<desc id="notes">n&quot;1</desc>'
has "$d/o.svg" 'all (4 bytes, 100%)'
has "$d/o.svg" 'nametype: "Func:"'
has "$d/o.svg" 'width="580.0" height="19.0"'  # 600 - 2*10 px plot, 20 - 1 px frames
grep -q 'fill="#00' "$d/o.svg" || fail "mem palette: no green-blue frames"

# A font name cannot break out of the CSS.
"$TEPHRA" flamegraph --fonttype 'Evil}</style><x>' "$d/s.folded" > "$d/f.svg"
wellformed "$d/f.svg"
has "$d/f.svg" 'text { font-family: Evilstylex, sans-serif;'

# Icicle: root at the top (y = 3*fontsize + 1 = 37).
"$TEPHRA" flamegraph --inverted "$d/s.folded" -o "$d/i.svg"
has "$d/i.svg" '<title>all (4 samples, 100%)</title><rect x="10.0" y="37.0"'
has "$d/i.svg" '>Icicle Graph</text>'

# Reversed: leaves at the root: a 1, c 2, z 1 => a at 10, c at 305, z at 895.
"$TEPHRA" flamegraph --reverse "$d/s.folded" -o "$d/r.svg"
has "$d/r.svg" '<title>c (2 samples, 50.00%)</title><rect x="305.0" y="69.0" width="590.0"'
has "$d/r.svg" '<title>main (2 samples, 50.00%)</title><rect x="305.0" y="37.0"'

# Flame chart keeps input order: b, a, b stay three frames.
printf '%s\n' 'm;b 1' 'm;a 1' 'm;b 1' > "$d/t.folded"
"$TEPHRA" flamegraph --flamechart "$d/t.folded" -o "$d/t.svg"
[ "$(grep -c '<title>b (1 samples' "$d/t.svg")" = 2 ] || fail "flame chart merged b"
has "$d/t.svg" '<title>a (1 samples, 33.33%)</title><rect x="403.3"'
# Flame chart geometry, as flamegraph.pl --flamechart draws it: lines in order, a frame
# continues only from the line right before (a stack that is a prefix of the previous one
# continues its frames too), so a frame's own samples sit where they came in time.  8
# samples, 147.5 px each, x = 10 + 147.5 * start:
#   m 1       m opens at 0 (its own sample: 0-1)
#   m;a 1     a opens at 1
#   m;a;x 2   x opens at 2, lasts to 4
#   m 1       a and x end at 4: a 1-4 (3 samples); m's own sample 4-5
#   m;a 1     a new frame a at 5-6, not merged with the first a
#   m;b 1     b opens at 6
#   m;b 1     b continues: 6-8
printf '%s\n' 'm 1' 'm;a 1' 'm;a;x 2' 'm 1' 'm;a 1' 'm;b 1' 'm;b 1' > "$d/c.folded"
for t in "$TEPHRA" "$TEPHRA_ASAN"; do
	"$t" flamegraph --flamechart "$d/c.folded" -o "$d/c.svg"
	has "$d/c.svg" '<title>m (8 samples, 100.00%)</title><rect x="10.0" y="69.0" width="1180.0"'
	has "$d/c.svg" '<title>a (3 samples, 37.50%)</title><rect x="157.5" y="53.0" width="442.5"'
	has "$d/c.svg" '<title>x (2 samples, 25.00%)</title><rect x="305.0" y="37.0" width="295.0"'
	has "$d/c.svg" '<title>a (1 samples, 12.50%)</title><rect x="747.5" y="53.0" width="147.5"'
	has "$d/c.svg" '<title>b (2 samples, 25.00%)</title><rect x="895.0" y="53.0" width="295.0"'
	[ "$(grep -c '^<g o=' "$d/c.svg")" = 6 ] || fail "flame chart: 6 frames expected"
done
# The first a's frame carries its offset and width in samples (for zoom and search).
has "$d/c.svg" '<g o="1" w="3"><title>a (3 samples'
# A stack repeated after its own prefix is a new frame: a;b at 0-1, a 1-2, a;b 2-3 (393.3 px
# each); --reverse reverses each line first (b;a 1, a 1, b;a 1: b, a, b at the root).
printf '%s\n' 'a;b 1' 'a 1' 'a;b 1' > "$d/p.folded"
"$TEPHRA" flamegraph --flamechart "$d/p.folded" -o "$d/p.svg"
has "$d/p.svg" '<title>a (3 samples, 100.00%)</title><rect x="10.0" y="53.0" width="1180.0"'
has "$d/p.svg" '<title>b (1 samples, 33.33%)</title><rect x="10.0" y="37.0" width="393.3"'
has "$d/p.svg" '<title>b (1 samples, 33.33%)</title><rect x="796.7" y="37.0" width="393.3"'
"$TEPHRA" flamegraph --flamechart --reverse "$d/p.folded" -o "$d/pr.svg"
has "$d/pr.svg" '<title>b (1 samples, 33.33%)</title><rect x="10.0" y="53.0" width="393.3"'
has "$d/pr.svg" '<title>a (1 samples, 33.33%)</title><rect x="403.3" y="53.0" width="393.3"'
has "$d/pr.svg" '<title>b (1 samples, 33.33%)</title><rect x="796.7" y="53.0" width="393.3"'
# Two counts: the x axis is the second column (3 samples), as widths are.
printf '%s\n' 'a;b 5 1' 'a 0 1' 'a;b 5 1' > "$d/p2.folded"
"$TEPHRA" flamegraph --flamechart "$d/p2.folded" -o "$d/p2.svg"
has "$d/p2.svg" '</title><rect x="796.7" y="37.0" width="393.3"'

# --minwidth: 1000 samples, 1.18 px each; --minwidth 2 drops the 1-sample frame.
printf '%s\n' 'big 999' 'small 1' > "$d/m.folded"
"$TEPHRA" flamegraph --minwidth 2 "$d/m.folded" -o "$d/m.svg"
hasnt "$d/m.svg" '<title>small'
"$TEPHRA" flamegraph --minwidth 0.1% "$d/m.folded" -o "$d/m2.svg"
has "$d/m2.svg" '<title>small'

# Awkward names: escaped, non-UTF-8 shown as \xNN, annotations stripped from the text.
printf 'main;a<b&"c'"'"' 1\nmain;bad\377\001 1\nmain;sys_read_[k] 1\nmain;\303\274 1\n' > "$d/n.folded"
"$TEPHRA_ASAN" flamegraph "$d/n.folded" -o "$d/n.svg"
wellformed "$d/n.svg"
has "$d/n.svg" '<title>a&lt;b&amp;&quot;c&#39; (1 samples'
has "$d/n.svg" '<title>bad\xff\x01 (1 samples'
has "$d/n.svg" '<title>sys_read (1 samples'
has "$d/n.svg" "$(printf '<title>\303\274 (1 samples')"

# Consistent palette: colours are written to the map and reused; an edited entry wins.
(cd "$d" && "$TEPHRA" flamegraph --cp s.folded -o p1.svg)
[ -s "$d/palette.map" ] || fail "no palette.map written"
has "$d/palette.map" 'main->rgb('
sed -i 's/^main->rgb(.*/main->rgb(1,2,3)/' "$d/palette.map"
(cd "$d" && "$TEPHRA" flamegraph --cp s.folded -o p2.svg)
has "$d/p2.svg" '<title>main (3 samples, 75.00%)</title><rect x="10.0" y="69.0" width="885.0" height="15.0" fill="#010203"/>'
# Same input, same colours (no randomness) without a map too.
"$TEPHRA" flamegraph "$d/s.folded" -o "$d/s2.svg"
cmp -s "$d/s.svg" "$d/s2.svg" || fail "two runs gave different SVGs"

# Every palette name is accepted; an unknown one is refused.
for p in hot mem io red green blue aqua yellow purple orange java js perl python rust wakeup chain; do
	"$TEPHRA" flamegraph --colors $p "$d/s.folded" > /dev/null || fail "palette $p"
done
! "$TEPHRA" flamegraph --colors nope "$d/s.folded" > /dev/null 2>&1 || fail "unknown palette accepted"
echo ok
