#!/usr/bin/env bash
# Hostile folded text, diff inputs and palette files for tephra flamegraph / diff.
# Inputs are generated here (seeded); every case says whether the input is legitimately
# fine (0) or must be refused with an error naming the file (1).
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
python3 - <<'PY'
import random
r = random.Random(20261123)
def w(name, data):
    open(name, "wb").write(data if isinstance(data, bytes) else data.encode())
w("good.folded", "main;a;b 3\nmain;a;c 5\nmain;d 2\n")
# Counts: beyond 2^53 a count cannot be summed exactly: the line is refused.
w("huge.folded", "main;a 9007199254740993\n")
w("hugepair.folded", "main;a 1 99999999999999999999999\n")
w("inf.folded", "main;a 1e999\n")
w("expo.folded", "main;a " + "9" * 400 + "\n")
# Sums: 100000 lines of 2^52 each: the total overflows exactness, not the program.
w("sums.folded", "".join("main;s%d 4503599627370496\n" % (i % 7) for i in range(100000)))
w("negative.folded", "main;a -5\nmain;b -1.5\n")
w("negpair.folded", "main;a -5 3\n")
w("nan.folded", "main;a nan\nmain;b 0x10\n")
w("dots.folded", "main;a 1.2.3\nmain;b .\nmain;c 5.\n")
# NUL bytes inside names, counts and lines of NULs: names keep them (escaped in the SVG).
w("nul.folded", b"ma\0in;a\0b 5\n\0\0\0\0\nmain;x 3\0\n")
w("noeol.folded", "main;a 5")
w("crlf.folded", "main;a 5\r\nmain;b 2\r\n\r\n")
w("empty_frames.folded", "main;;a 5\n;;;main 2\n")
w("only_semis.folded", ";; 5\n;;;;;;;; 7\n")
w("blank.folded", "\n\n   \n\t\r\n")
w("countonly.folded", "5\n 7\n")
w("utf8.folded", b"\xff\xfe;\xc0\x80;\xed\xa0\x80;\xf4\x90\x80\x80;\xe2\x82 5\nok;\xc3\xa9 2\n")
w("ctrl.folded", b"a\x1b[31m;\x7f;\x01\x02;<&>\"' 4\n")
# One line of 1,000,000 frames, distinct names: a deep tree, no recursion anywhere.
w("deep.folded", ";".join("f%d" % i for i in range(1000000)) + " 1\n")
# A 100,000-frame line twice: one chain of g, weight 4.
w("deep_same.folded", (";".join("g" for _ in range(100000)) + " 2\n") * 2)
# 1,000,000 frames of one byte on 2000 lines; and 300000 distinct one-frame lines.
w("tiny.folded", "".join(";".join("x" for _ in range(500)) + " 1\n" for _ in range(2000)))
w("many.folded", "".join("r;%x 1\n" % i for i in range(300000)))
w("random.bin", bytes(r.getrandbits(8) for _ in range(200000)))
# Random lines from a small alphabet: counts, spaces, ';', NUL, CR, '.', '-'.
alpha = b"ab;; ;0123456789.-\0\r\t\xff"
w("alpha.folded", b"\n".join(bytes(r.choice(alpha) for _ in range(r.randrange(0, 60)))
                             for _ in range(20000)))
# Palette files.
w("pal_good.map", "main->rgb(1,2,3)\na->rgb(255,255,255)\n\n")
w("pal_syntax.map", "main->rgb(1,2,3)\nthis is not a palette line\n")
w("pal_range.map", "main->rgb(256,0,0)\n")
w("pal_neg.map", "main->rgb(-1,0,0)\n")
w("pal_huge.map", "main->rgb(99999999999999999999999,0,0)\n")
w("pal_open.map", "main->rgb(1,2,3\n")
w("pal_nul.map", b"ma\0in->rgb(1,2,3)\nb->rgb(1,\0002,3)\n")
w("pal_random.map", bytes(r.getrandbits(8) for _ in range(5000)))
w("pal_arrow.map", "->rgb(1,2,3)\n->rgb(->rgb(4,5,6)\n")
w("pal_crlf.map", "main->rgb(1,2,3)\r\n")
PY
fg() { expect "$1" "$2" "$T" flamegraph "${@:3}" -o out.svg; }
wellformed() { python3 -c 'import sys, xml.parsers.expat as x; x.ParserCreate().ParseFile(open(sys.argv[1], "rb"))' out.svg ||
	fail "out.svg is not well-formed XML after: $*"; }

fg 0 "" good.folded; wellformed good
for f in huge hugepair inf expo negative nan only_semis countonly blank; do
	fg 1 "$f.folded" $f.folded   # nothing drawable: "no stack counts found"
done
grep -q "no stack counts found" err.txt || fail "message for a file with no counts"
# "5." is a count (5); "1.2.3" and "." are not: drawn, with a warning for 2 lines.
fg 0 "" dots.folded; grep -q "dots.folded: warning: ignored 2 lines" err.txt || fail "dots warning"
# "main;a -5 3": "-5" is not a count, so the frame is named "a -5" (names may hold spaces).
for f in negpair sums nul noeol crlf empty_frames utf8 ctrl deep_same tiny many; do
	fg 0 "" $f.folded; wellformed $f
done
fg 0 "" deep.folded   # 1,000,000 frames drawn (a 180 MB SVG: too long to parse here)
tail -c 300 out.svg | grep -q '<title>f999999 (1 samples, 100.00%)' || fail "deep: the leaf frame"
tail -n 1 out.svg | grep -qx '</svg>' || fail "deep: the SVG is not complete"
fg 0 "" tiny.folded   # 2000 lines of 500 "x" frames: a 500-deep chain of x, 2000 at the top
grep -q '<title>x (2000 samples' out.svg || fail "tiny: the x frames hold all samples"
# Partial results, honestly: good lines drawn, the rest counted in one warning.
cat good.folded negative.folded > mixed.folded
fg 0 "" mixed.folded
grep -q "mixed.folded: warning: ignored 2 lines; the first, line 4 at offset 0x1f: no count at the end" err.txt ||
	{ cat err.txt; fail "warning for the skipped lines"; }
fg 0 "" alpha.folded   # random lines: some parse, the rest are counted as skipped
fg 1 "random.bin" random.bin
# Standard input, a pipe.
expect 0 "" sh -c "$T flamegraph < deep_same.folded > out.svg"
expect 1 "<stdin>" sh -c "$T flamegraph < random.bin > out.svg"
# Palette files (--palfile implies --cp): a corrupt one is an error naming it and the line.
fg 0 "" --palfile pal_good.map good.folded
grep -q '^main->rgb(1,2,3)$' pal_good.map || fail "the palette kept main's colour"
grep -q 'fill="#010203"' out.svg || fail "main drawn in its palette colour"
# A failed run leaves the graph of the last good one as it was (docs/hostile.md,
# "Output files"), and no file beside it.
cp out.svg prev.svg
ls >prev.ls
for p in pal_syntax pal_range pal_neg pal_huge pal_open pal_nul pal_random pal_arrow; do
	cp $p.map $p.copy
	fg 1 "$p.map" --palfile $p.map good.folded
	cmp -s $p.map $p.copy || fail "$p.map was rewritten after an error"
	cmp -s out.svg prev.svg || fail "$p: out.svg changed despite the error"
	rm $p.copy
	ls | grep -vx 'out.txt\|err.txt' | cmp -s - <(grep -vx 'out.txt\|err.txt' prev.ls) ||
		fail "$p: files left: $(ls)"
done
grep -q "offset" err.txt || fail "palette error gives an offset"
fg 0 "" --palfile pal_crlf.map good.folded
fg 1 "$TEST_TMP: offset 0x0: read error" --palfile "$TEST_TMP" good.folded
mkdir -p pal_dir
fg 1 "pal_dir" --palfile pal_dir good.folded
# Text options go into the SVG too: control bytes, invalid UTF-8 and markup must leave it
# well-formed (--countname, in every <title>, was written raw).
for o in --title --subtitle --notes --countname --nametype --fonttype; do
	for v in $'\x01\x02' $'\xff\xfe' '</svg><script>' ']]>' "'\"&" ''; do
		fg 0 "" "$o" "$v" good.folded; wellformed "$o $(printf %q "$v")"
	done
done
# diff: the same hostile files as either side.
for f in huge negative only_semis random.bin; do
	[ -e $f ] || f=$f.folded
	expect 1 "$f" "$T" diff good.folded $f -o out.svg
	expect 1 "$f" "$T" diff $f good.folded -o out.svg
done
expect 0 "" "$T" diff deep_same.folded tiny.folded -o out.svg
expect 0 "" "$T" diff nul.folded utf8.folded --folded -o out.txt
expect 0 "" "$T" diff -n sums.folded good.folded --folded -o out.txt
expect 0 "" "$T" diff -s ctrl.folded crlf.folded -o out.svg
expect 1 "missing.folded" "$T" diff good.folded missing.folded -o out.svg
expect 2 "" "$T" diff good.folded
expect 2 "" "$T" diff - - 
echo "ok: $ncases cases"
