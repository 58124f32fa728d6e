#!/usr/bin/env bash
# Hostile input for tephra heatmap (the ASan+UBSan build, bounded in time by
# tests/hostile/lib.sh): an empty file, a recording without samples, folded stacks and
# perf script text (no sample times: refused, naming the file, and no page written),
# damaged perf.data, filters that leave nothing, bad options.  A cut recording is read
# up to the cut (a warning; --strict makes it an error) and its page still written.
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
printf 'main;a;b 3\nmain;c 2\n' >good.folded
printf 'prog  123 [000]  1.000000:     250000 cpu-clock:\n\t    5555 main+0x5 (/bin/prog)\n\n' >script.txt
: >empty.data
python3 - <<'PY'
import random
r = random.Random(20261127)
open("fake.data", "wb").write(b"PERFILE2" + bytes(r.randrange(256) for _ in range(4096)))
open("short.data", "wb").write(b"PERFILE2")
PY
mkdir -p dir.out
for f in good.folded script.txt empty.data fake.data short.data missing.data; do
	rm -f page.html
	expect 1 "$f" "$T" heatmap -o page.html "$f"
	[ ! -e page.html ] || fail "$f: a page was written for a refused input"
done
"$T" heatmap -o page.html good.folded 2>&1 | grep -q 'folded stacks' || fail "folded input: the error does not say why"
expect 1 "" "$T" heatmap -o page.html - <good.folded
expect 2 "" "$T" heatmap --rows 0 -o page.html good.folded
expect 2 "" "$T" heatmap --rows 20x -o page.html good.folded
expect 2 "" "$T" heatmap --off-cpu -o page.html good.folded
expect 2 "" "$T" heatmap --nosuch -o page.html good.folded

if perf_can_record || partial "$PERF_PROBE_ERR: the cases with recordings are not checked"; then
	# a sample every 1000 s of CPU: none, by construction
	perf record -q -N -o none.data -e cpu-clock -c 1000000000000 -- true >/dev/null 2>&1 ||
		fail "perf record failed"
	expect 1 "no samples" "$T" heatmap -o page.html none.data
	perf record -q -N -o some.data -e cpu-clock -F 2000 -g -- \
		python3 -c 'sum(i * i for i in range(3000000))' >/dev/null 2>&1 || fail "perf record failed"
	expect 1 "no samples" "$T" heatmap --comms nosuchcomm -o page.html some.data
	expect 1 "dir.out" "$T" heatmap -o dir.out some.data
	expect 0 "" "$T" heatmap -o some.html some.data
	grep -q '</html>' some.html || fail "some.data: the page is incomplete"
	size=$(stat -c %s some.data)
	head -c $((size / 2)) some.data >cut.data
	expect 0 "" "$T" heatmap -o cut.html cut.data
	expect 1 "cut.data" "$T" heatmap --strict -o cut2.html cut.data
	[ ! -e cut2.html ] || fail "cut.data --strict: a page was written"
	expect 0 "" "$T" heatmap -o - some.data
	cmp -s out.txt some.html || fail "-o - differs from -o FILE"
fi
echo "ok: $ncases cases"
