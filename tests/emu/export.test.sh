#!/usr/bin/env bash
# tephra emu -f pprof|callgrind|speedscope and tephra trace -f pprof, read back by the
# formats' own tools, on guests run in one clean environment (emu is exact and
# deterministic: tests/emu/oracle.test.sh):
#  - the stacks (go tool pprof -traces; callgrind_annotate's totals and inclusive
#    costs, tests/export/callgrind_check.py; speedscope's samples) equal the raw profile
#    of another run expanded by `tephra symbolize`, source lines dropped (its inline
#    chains are frames in pprof "(inline)", functions in callgrind and speedscope);
#  - every leaf address's instructions, summed over pprof's samples, equal how often
#    QEMU's own -singlestep log shows that pc executed;
#  - the Mapping is the guest (absolute path) with the build-id readelf prints; the
#    sample type is instructions/count; the hot loop's Location is sq inlined in sumsq
#    inlined in outer, with the lines marked in tests/guests/inlines.c;
#  - tephra trace -f pprof of QEMU's log of a run gives the same stacks as tephra emu.
. "$TOP/tests/emu/lib.sh"
X=$TOP/tests/export
cc_guest inl inlines.c -O2
cc_guest wl workload.c -O2
L() { grep -n "$1" "$GUESTS/inlines.c" | cut -d: -f1; }
have_go=1; want_tool go "pprof" "Debian: golang-go" || have_go=
have_cg=1; want_tool callgrind_annotate "callgrind" "Debian: valgrind" || have_cg=
emu() { env -i PATH="$PATH" "$TEPHRA" emu "$@" >/dev/null 2>emu.err </dev/null || { cat emu.err; fail "tephra emu $*"; }; }

for g in inl wl; do
	run_both $g || { cat emu.err; fail "tephra emu $g"; }
	emu --raw -o $g.raw -- ./$g
	"$TEPHRA" symbolize --elf $g -o $g.sym $g.raw || fail "symbolize $g"
	# the expected stacks: symbolize's frames without their lines (inlined ones keep _[i]
	# for callgrind_check.py, which drops it itself), equal stacks summed
	sed -E 's/ \([^;()]*:[0-9]+\)//g' $g.sym |
		awk '{ c = $NF; $NF = ""; sub(/ $/, ""); s[$0] += c } END { for (k in s) print k " " s[k] }' |
		LC_ALL=C sort >$g.expected
	sed 's/_\[i\]//g' $g.expected | LC_ALL=C sort >$g.expected.plain
	[ "$(total $g.expected)" = "$(total $g.folded)" ] || fail "$g: symbolized total differs from emu's"

	if [ -n "$have_go" ]; then
		emu -f pprof -o $g.pb.gz -- ./$g
		go tool pprof -traces $g.pb.gz 2>$g.go.err | python3 "$X/pprof_traces.py" --root none | LC_ALL=C sort >$g.pprof
		[ -s $g.pprof ] || fail "$g: go tool pprof read nothing: $(head -n 3 $g.go.err)"
		diff $g.expected.plain $g.pprof >$g.diff || { head $g.diff; fail "$g: pprof stacks differ from the symbolized raw profile"; }
		go tool pprof -raw $g.pb.gz 2>/dev/null >$g.raw.txt
		grep -qxF 'instructions/count[dflt]' $g.raw.txt || fail "$g: sample type is not instructions/count"
		bid=$(riscv64-linux-gnu-readelf -n $g | sed -n 's/.*Build ID: *//p')
		[ -n "$bid" ] || fail "$g: readelf shows no build-id"
		grep -Eq "^1: .* $TEST_TMP/$g $bid \[FN\]\[FL\]\[LN\]\[IN\]$" $g.raw.txt ||
			fail "$g: the mapping is not $TEST_TMP/$g with build-id $bid: $(grep -A2 '^Mappings' $g.raw.txt)"
		# leaf addresses against QEMU's executed pcs
		python3 - $g.raw.txt $g.pcs <<'PY' || fail "$g: leaf instructions differ from QEMU's pcs"
import re, sys
text = open(sys.argv[1]).read()
samples = text.split("\nSamples:\n", 1)[1].split("\nLocations\n", 1)[0]
locs = text.split("\nLocations\n", 1)[1].split("\nMappings\n", 1)[0]
addr = {}
for m in re.finditer(r"^ *(\d+): (0x[0-9a-f]+) ", locs, re.M):
    addr[m.group(1)] = int(m.group(2), 16)
got = {}
for m in re.finditer(r"^ *(\d+): (\d+) ", samples, re.M):
    a = addr[m.group(2)]
    got[a] = got.get(a, 0) + int(m.group(1))
want = {}
for line in open(sys.argv[2]):
    a = int(line, 16)
    want[a] = want.get(a, 0) + 1
bad = sorted(set(got.items()) ^ set(want.items()))
for b in bad[:10]:
    print("differs: 0x%x %d" % b)
print("ok: %d pcs, %d instructions" % (len(want), sum(want.values())) if not bad else "")
sys.exit(1 if bad else 0)
PY
		echo "ok: $g: pprof stacks, leaf pcs, mapping"
	fi

	if [ -n "$have_cg" ]; then
		emu -f callgrind -o $g.cg -- ./$g
		callgrind_annotate --inclusive=yes --threshold=100 $g.cg >$g.ann 2>$g.ann.err ||
			fail "$g: callgrind_annotate failed: $(head -n 3 $g.ann.err)"
		grep -q WARNING $g.ann.err && fail "$g: callgrind_annotate warns: $(head -n 3 $g.ann.err)"
		grep -qx 'events: Ir' $g.cg || fail "$g: the callgrind event is not Ir"
		out=$(python3 "$X/callgrind_check.py" $g.expected $g.cg $g.ann) ||
			{ echo "$out"; fail "$g: callgrind file differs from the symbolized raw profile"; }
		echo "ok: $g: callgrind: $out"
	fi

	emu -f speedscope -o $g.json -- ./$g
	python3 - $g.json $g.expected.plain <<'PY' || fail "$g: speedscope stacks differ from the symbolized raw profile"
import json, sys
doc = json.load(open(sys.argv[1]))
frames = doc["shared"]["frames"]
assert len(doc["profiles"]) == 1, [p["name"] for p in doc["profiles"]]
got = {}
for p in doc["profiles"]:
    for s, w in zip(p["samples"], p["weights"]):
        key = ";".join(frames[i]["name"] for i in s)
        got[key] = got.get(key, 0) + w
want = {}
for line in open(sys.argv[2]):
    stack, _, w = line.rstrip("\n").rpartition(" ")
    want[stack] = want.get(stack, 0) + int(w)
bad = sorted(set(want.items()) ^ set(got.items()))
for b in bad[:10]:
    print("differs:", b)
sys.exit(1 if bad else 0)
PY
	echo "ok: $g: speedscope stacks"
done

if [ -n "$have_go" ]; then
	# the hot loop: one Location, sq in sumsq in outer, the lines of the source
	python3 - inl.raw.txt "$(L LINE-SQ)" "$(L CALL-SQ)" "$(L CALL-SUMSQ)" <<'PY' || fail "inl: no Location of sq inlined in sumsq in outer with the source's lines"
import re, sys
text = open(sys.argv[1]).read()
want = r"M=1 sq inlines.c:%s s=0\n +sumsq inlines.c:%s s=0\n +outer inlines.c:%s s=0\n" % tuple(sys.argv[2:5])
sys.exit(0 if re.search(want, text) else 1)
PY
	# tephra trace of QEMU's own log of a run: the same export
	env -i PATH="$PATH" qemu-riscv64 -singlestep -d exec,nochain -D wl.log ./wl >/dev/null 2>&1 </dev/null
	for tool in "$TEPHRA" "$TEPHRA_ASAN"; do
		[ -x "$tool" ] || continue
		"$tool" trace --elf wl -f pprof -o wl.trace.pb.gz wl.log 2>trace.err || { cat trace.err; fail "$tool trace -f pprof"; }
		go tool pprof -traces wl.trace.pb.gz 2>/dev/null | python3 "$X/pprof_traces.py" --root none | LC_ALL=C sort >wl.trace.pprof
		diff wl.expected.plain wl.trace.pprof >wl.trace.diff || { head wl.trace.diff; fail "$tool trace -f pprof: stacks differ from the symbolized raw profile"; }
	done
	echo "ok: trace -f pprof = emu"
fi

# bad combinations: a clear error, exit 2
"$TEPHRA" emu -f pprof --raw -- ./wl 2>err; rc=$?
[ $rc = 2 ] && grep -q 'not with --raw' err || fail "-f with --raw: exit $rc: $(cat err)"
"$TEPHRA" emu -f svg -- ./wl 2>err; rc=$?
[ $rc = 2 ] && grep -q "unknown format 'svg'" err || fail "emu -f svg: exit $rc: $(cat err)"
"$TEPHRA" trace --elf wl -f svg wl.log 2>err; rc=$?
[ $rc = 2 ] && grep -q "not 'svg'" err || fail "trace -f svg: exit $rc: $(cat err)"
exit 0
