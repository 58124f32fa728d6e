#!/usr/bin/env bash
# tephra grind -f pprof|callgrind|speedscope, read back by the formats' own tools: for a
# program that forks and execs another (3 processes: spawn, its child before and after
# the exec) and a single-process one (calls; not a threaded one: when a join waits
# differs from run to run), the export of a run equals the folded stacks of
# another run of the same program in the same environment (grind is exact and
# deterministic: tests/grind/lackey.test.sh):
#  - pprof (`go tool pprof -traces`): the stacks under the thread label (the process's
#    comm) and their instructions are grind.folded's lines; the sample type is
#    instructions/count; a pid label per process (2 pids, 3 comm/pid pairs for spawn);
#  - callgrind (callgrind_annotate --inclusive=yes): program total, every function's
#    inclusive cost, arcs only between adjacent frames (tests/export/callgrind_check.py);
#    the event is Ir;
#  - speedscope: a profile per process "comm (pid)" (one for a child before and after
#    its exec: speedscope's profiles are threads, named by their last comm, as for
#    perf.data), the stacks of all summed equal the folded lines without their root
#    (and valid against speedscope's schema: tests/export/speedscope_lib.sh);
#  - the ASan+UBSan build writes the same pprof stacks, without a report;
#  - bad combinations are refused: --no-children, %p in -o, an unknown format.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/export/speedscope_lib.sh"
X=$TOP/tests/export
build spawn "$PROGS/spawn.c"
build spawnee "$PROGS/spawnee.c"
build calls "$PROGS/calls.c"
cd "$TEST_TMP"
mkdir -p tmp
same_env=(env -i PATH="$PATH" LC_ALL=C TMPDIR="$TEST_TMP/tmp")
# run OUT [grind options] -- PROGRAM...: one run in the fixed environment.
run() {
	local out=$1; shift
	"${same_env[@]}" "$TEPHRA" grind --no-svg -o "$out" "$@" >"$out.out" 2>"$out.err"
	local rc=$?
	[ -s "$out" ] || { cat "$out.err"; fail "tephra grind -o $out $* wrote nothing (exit $rc)"; }
}

# The formats' own readers: without them (not strict) those parts are left out, with a note.
have_go=1; want_tool go "pprof" "Debian: golang-go" || have_go=
have_cg=1; want_tool callgrind_annotate "callgrind" "Debian: valgrind" || have_cg=
schema=$(speedscope_schema) || exit 1
for prog in spawn calls; do
	args=("./$prog"); [ $prog = spawn ] && args=(./spawn ./spawnee)
	run $prog.folded -- "${args[@]}"
	sort $prog.folded >$prog.expected

	if [ -n "$have_go" ]; then
		run $prog.pb.gz -f pprof -- "${args[@]}"
		go tool pprof -traces $prog.pb.gz 2>$prog.go.err | python3 "$X/pprof_traces.py" --root comm | sort >$prog.pprof
		[ -s $prog.pprof ] || fail "$prog: go tool pprof read nothing: $(head -n 3 $prog.go.err)"
		cmp -s $prog.expected $prog.pprof || { diff $prog.expected $prog.pprof | head; fail "$prog: pprof stacks differ from grind.folded"; }
		go tool pprof -raw $prog.pb.gz 2>/dev/null >$prog.raw
		grep -qxF 'instructions/count[dflt]' $prog.raw || fail "$prog: sample type is not instructions/count: $(sed -n 4p $prog.raw)"
		echo "ok: $prog: pprof stacks = folded ($(wc -l <$prog.expected) lines)"
	fi

	if [ -n "$have_cg" ]; then
		run $prog.cg -f callgrind -- "${args[@]}"
		callgrind_annotate --inclusive=yes --threshold=100 $prog.cg >$prog.ann 2>$prog.ann.err ||
			fail "$prog: callgrind_annotate failed: $(head -n 3 $prog.ann.err)"
		grep -q WARNING $prog.ann.err && fail "$prog: callgrind_annotate warns: $(head -n 3 $prog.ann.err)"
		grep -qx 'events: Ir' $prog.cg || fail "$prog: the callgrind event is not Ir"
		out=$(python3 "$X/callgrind_check.py" $prog.folded $prog.cg $prog.ann) ||
			{ echo "$out"; fail "$prog: callgrind file differs from grind.folded"; }
		echo "ok: $prog: callgrind: $out"
	fi

	run $prog.json -f speedscope -- "${args[@]}"
	nprofiles=2; [ $prog = calls ] && nprofiles=1
	python3 - $prog.json $prog.folded $nprofiles $schema <<'PY' || fail "$prog: speedscope file differs from grind.folded"
import json, re, sys
doc = json.load(open(sys.argv[1]))
if len(sys.argv) > 4:
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[4])))
assert len(doc["profiles"]) == int(sys.argv[3]), [p["name"] for p in doc["profiles"]]
want = {}
for line in open(sys.argv[2]):
    stack, _, w = line.rstrip("\n").rpartition(" ")
    stack = stack.split(";", 1)[1]
    want[stack] = want.get(stack, 0) + int(w)
frames = doc["shared"]["frames"]
got = {}
for p in doc["profiles"]:
    m = re.fullmatch(r"(.*) \((\d+)\)", p["name"])
    assert m, "profile name %r is not 'comm (pid)'" % p["name"]
    assert p["endValue"] == sum(p["weights"]), p["name"]
    for s, w in zip(p["samples"], p["weights"]):
        key = ";".join(frames[i]["name"] for i in s)
        got[key] = got.get(key, 0) + w
bad = sorted(set(want.items()) ^ set(got.items()))
for b in bad[:10]:
    print("differs:", b)
sys.exit(1 if bad else 0)
PY
	echo "ok: $prog: speedscope stacks = folded${schema:+, schema-valid}"
done

# spawn's processes: pid labels (the parent; the child, before and after its exec)
if [ -n "$have_go" ]; then
	go tool pprof -traces spawn.pb.gz 2>/dev/null | python3 "$X/pprof_traces.py" --root labels |
		sed 's/;.*//' | sort -u >labels
	[ "$(cut -d/ -f1,2 labels | sort -u | wc -l)" = 3 ] || { cat labels; fail "spawn: not 3 comm/pid pairs"; }
	[ "$(cut -d/ -f2 labels | sort -u | wc -l)" = 2 ] || { cat labels; fail "spawn: not 2 pids"; }
	grep -qv '/?$' labels && { cat labels; fail "spawn: a tid label (grind merges a process's threads)"; }
fi

# the ASan+UBSan build writes the same profile as its own folded one, without a report.
# Not the plain build's: Valgrind gives the guest LD_PRELOAD and VALGRIND_LIB with the
# tool's directory (build/asan/grind/lib against build/grind/lib), and the start-up code's
# string work on them makes the count depend on its length (/bin/true: 109,961, 110,288
# and 110,477 instructions from copies at 3 path lengths); this failed in a fresh root
[ -x "${TEPHRA_ASAN:-}" ] || partial "no ASan build (make asan): its export not checked"
if [ -x "${TEPHRA_ASAN:-}" ] && [ -n "$have_go" ]; then
	"${same_env[@]}" "$TEPHRA_ASAN" grind --no-svg -o asan.folded -- ./calls 2>asan.err ||
		{ cat asan.err; fail "ASan build: tephra grind failed"; }
	"${same_env[@]}" "$TEPHRA_ASAN" grind --no-svg -f pprof -o asan.pb.gz -- ./calls 2>>asan.err ||
		{ cat asan.err; fail "ASan build: tephra grind -f pprof failed"; }
	grep -q 'ERROR: \|runtime error' asan.err && { cat asan.err; fail "ASan build reports"; }
	sort asan.folded >asan.expected
	go tool pprof -traces asan.pb.gz 2>/dev/null | python3 "$X/pprof_traces.py" --root comm | sort >asan.pprof
	[ -s asan.pprof ] && cmp -s asan.expected asan.pprof || fail "ASan build: pprof stacks differ from its grind.folded"
	echo "ok: ASan build"
fi

# bad combinations: a clear error, exit 2, no run
"$TEPHRA" grind -f pprof --no-children -- ./calls 2>err; rc=$?
[ $rc = 2 ] && grep -q 'not with --no-children' err || fail "-f with --no-children: exit $rc: $(cat err)"
"$TEPHRA" grind -f pprof -o 'x.%p.pb.gz' -- ./calls 2>err; rc=$?
[ $rc = 2 ] && grep -q 'no %p' err || fail "-f with %p: exit $rc: $(cat err)"
"$TEPHRA" grind -f svg -- ./calls 2>err; rc=$?
[ $rc = 2 ] && grep -q "unknown format 'svg'" err || fail "-f svg: exit $rc: $(cat err)"
exit 0
