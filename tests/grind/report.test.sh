#!/usr/bin/env bash
# tephra report of grind's folded output: folded text does not say what its counts are,
# so `--countname instructions` (flamegraph's option) names them: the heading and the
# JSON's unit say instructions, no sample count is claimed, and work's self cost is the
# hand-worked 2002 + 4002 + 2002 instructions (progs/calls.c; lib.sh: work(N) executes
# 2N+2).  Without the option the heading claims no sample count either.
. "$(dirname "$0")/lib.sh"
build calls "$PROGS/calls.c"
cd "$TEST_TMP"
grind calls.folded -- ./calls
"$TEPHRA" report --countname instructions --json -n 0 calls.folded >r.json 2>r.err ||
	{ cat r.err; fail "tephra report --countname failed"; }
python3 - r.json <<'PY' || fail "report --json of grind's output (above)"
import json, sys
d = json.load(open(sys.argv[1]))
work = [r for r in d["rows"] if r["name"] == "work"]
assert d["unit"] == "instructions", d["unit"]
assert len(work) == 1 and work[0]["self"] == 8006, work
print("ok: unit %s, work self %d" % (d["unit"], work[0]["self"]))
PY
"$TEPHRA" report --countname instructions calls.folded >r.txt || fail "tephra report failed"
head -n 1 r.txt | grep -qE '^# calls\.folded: [0-9]+ in all \(instructions\)$' ||
	fail "heading: $(head -n 1 r.txt)"
"$TEPHRA" report calls.folded >plain.txt || fail "tephra report failed"
head -n 1 plain.txt | grep -q ' samples,' && fail "folded text's heading claims a sample count: $(head -n 1 plain.txt)"
echo "ok: $(head -n 1 r.txt)"
