#!/usr/bin/env bash
# Hostile input for tephra export's new reader path (folded text) and its output file:
# every case runs the ASan+UBSan build bounded in time (tests/hostile/lib.sh) and says
# whether the input is legitimately fine (0), refused with an error naming it (1), or a
# usage error (2).  Every format and `report --json` run on the accepted inputs; the
# JSON must parse, and the pprof files are read back by go tool pprof when it is here.
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
python3 - <<'PY'
import random
r = random.Random(20261126)
def w(name, data):
    open(name, "wb").write(data if isinstance(data, bytes) else data.encode())
w("good.folded", "main;a;b 3\nmain;a;c 5\nmain;d 2\nmain;a;b 4\n")
# counts: whole numbers below 2^63 (pprof's int64); others are skipped lines
w("big.folded", "main;a 9223372036854775807\nmain;b 9223372036854775808\nmain;c " + "9" * 400 + "\n")
w("sums.folded", "main;a 9223372036854775807\nmain;a 9223372036854775807\n")
w("fractions.folded", "main;a 1.5\nmain;b -3\nmain;c 0x10\nmain;d 7\n")
w("nul.folded", b"ma\0in;a 5\n\0\0\0\0\nmain;x 3\0\nmain;y 2\n")
w("noeol.folded", "main;a 5")
w("crlf.folded", "main;a 5\r\nmain;b 2\r\n\r\n")
w("empty_frames.folded", "main;;a 5\n;;;main 2\n;; 1\n")
w("blank.folded", "\n\n   \n\t\r\n")
w("empty.folded", "")
w("nocount.folded", "main;a\nmain;b x\n5\n")
w("utf8.folded", b"m\xc3\xa9in;\xff\xfe;\xe2\x82 4\n")
w("longline.folded", "main;" + "x" * (8 << 20) + " 1\n")
w("deep.folded", ";".join("f%d" % i for i in range(100000)) + " 1\n")
w("many.folded", "".join("main;f%d;g%d %d\n" % (i, i % 97, r.randrange(1, 1000)) for i in range(100000)))
w("binary.folded", bytes(r.randrange(256) for _ in range(1 << 16)))
w("fake.data", b"PERFILE2" + bytes(r.randrange(256) for _ in range(4096)))
w("short.data", b"PERFILE2")
PY
mkdir -p dir.folded
ok=(good big sums fractions nul noeol crlf empty_frames utf8 longline deep many)
for f in "${ok[@]}"; do
	expect 0 "" "$T" export -f pprof -o "$f.pb.gz" "$f.folded"
done
# the other writers and the report on the accepted inputs that differ in kind
for f in good sums nul empty_frames utf8 longline deep many; do
	expect 0 "" "$T" export -f callgrind -o "$f.cg" "$f.folded"
	expect 0 "" "$T" export -f speedscope -o "$f.json" "$f.folded"
	expect 0 "" "$T" report --json -n 0 "$f.folded"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$f.json" || fail "$f.json is not JSON"
	python3 -c 'import json, sys; json.load(sys.stdin)' <out.txt || fail "report --json of $f.folded is not JSON"
done
for f in nocount binary; do
	expect 1 "$f.folded" "$T" export -f pprof -o "$f.pb.gz" "$f.folded"
done
# nothing to count (an empty file, blank lines, a pipe perf record -o - never wrote
# to) is refused as flamegraph refuses it, and as perf report refuses an empty file;
# was: an empty table or profile, exit 0
for f in empty blank; do
	expect 1 "$f.folded: no stack counts found" "$T" export -f pprof -o "$f.pb.gz" "$f.folded"
	[ -e "$f.pb.gz" ] && fail "$f.pb.gz written for a profile of nothing"
	expect 1 "$f.folded: no stack counts found" "$T" report "$f.folded"
	[ -s out.txt ] && fail "report of $f.folded printed a table"
done
expect 1 "<stdin>: no stack counts found" "$T" report - </dev/null
expect 1 "<stdin>: no stack counts found" "$T" flamegraph -o e.svg - </dev/null
if command -v perf >/dev/null 2>&1; then
	perf report -i empty.folded --stdio >/dev/null 2>&1 && fail "perf report accepts an empty file: the premise is gone"
fi
expect 1 "fake.data" "$T" export -f pprof -o x.pb.gz fake.data
expect 1 "short.data" "$T" export -f pprof -o x.pb.gz short.data
expect 1 "missing.folded" "$T" export -f pprof -o x.pb.gz missing.folded
expect 1 "dir.folded" "$T" export -f pprof -o x.pb.gz dir.folded
expect 1 "no/such/dir" "$T" export -f pprof -o no/such/dir/x.pb.gz good.folded
expect 2 "" "$T" export -f nosuch -o x good.folded
expect 2 "" "$T" export -o x good.folded
expect 2 "" "$T" export -f pprof good.folded
expect 0 "" "$T" export -f pprof -o - good.folded
expect 0 "" "$T" export -f pprof -o stdin.pb.gz - <good.folded
cmp -s stdin.pb.gz good.pb.gz || true # mtime differs: only readability is checked below
# sums saturate at 2^63-1 instead of wrapping negative
if want_tool go "pprof's reading of the written files" "Debian: golang-go"; then
	for f in "${ok[@]}" stdin; do
		go tool pprof -raw "$f.pb.gz" >"$f.raw" 2>"$f.go.err" ||
			fail "go tool pprof cannot read $f.pb.gz: $(head -n 3 "$f.go.err")"
	done
	grep -q '^ *9223372036854775807: ' sums.raw || fail "sums: not saturated at 2^63-1: $(grep -A3 '^Samples' sums.raw)"
	go tool pprof -traces good.pb.gz 2>/dev/null | python3 "$TOP/tests/export/pprof_traces.py" --root none | sort >good.got
	printf 'main;a;b 7\nmain;a;c 5\nmain;d 2\n' >good.expected
	cmp -s good.expected good.got || fail "good.folded: pprof reads $(cat good.got)"
fi
echo "ok: $ncases cases"
