# pool: the object pool (docs/ARCHITECTURE.md, "Threads": one worker per CPU the
# process may use) loads several objects at once, yet what tephra prints depends on
# the recording only.  A DWARF recording of three programs at once (CPython, a C++
# program, a C program: libpython/python3, libstdc++, libc and the programs' own DWARF,
# inline chains among them): fold (default, --inline, --srcline), script and
# export -f pprof print the same bytes, standard error included, on one CPU
# (taskset -c 0: one worker) as on all of them (a worker per CPU), and so does the
# ThreadSanitizer build (build/tsan/tephra, `make tsan`), which reports no data race.
# The count of workers itself: tests/unit/base_cpus.c, also run here under taskset.
. "$TOP/tests/perf/lib.sh"
need_perf
command -v taskset >/dev/null 2>&1 || skip "taskset is not installed (util-linux)"
cpus=$(OMP_NUM_THREADS='' OMP_THREAD_LIMIT='' nproc)
[ "$cpus" -ge 2 ] || skip "one CPU available: nothing to compare a one-CPU run with"
TSAN_BIN=$TOP/build/tsan/tephra
[ -x "$TSAN_BIN" ] || { echo "build/tsan/tephra is missing: make tsan (make check builds it)"; exit 1; }
build_workloads
export TSAN_OPTIONS="halt_on_error=0 exitcode=66"

taskset -c 0 "$TOP/build/tests/base_cpus" || fail "unit/base_cpus under taskset -c 0"

data=$TEST_TMP/three.data
record "$data" --call-graph dwarf -F 2000 -e cpu-clock -- sh -c \
	"python3 '$TOP/tests/workloads/interp.py' 500 & '$WL/templates' 500 >/dev/null &
	 '$WL/recurse' 500; wait"
"$TEPHRA" script -i "$data" >"$TEST_TMP/objects" 2>/dev/null
for object in python3 templates recurse libc.so.6; do
	grep -q "($(printf '%s' "$object" | sed 's/\./\\./g')" "$TEST_TMP/objects" ||
		grep -q "/$object[^ ]*)" "$TEST_TMP/objects" ||
		fail "no frame of $object in the recording"
done
grep -q ' (inlined)$' "$TEST_TMP/objects" || fail "no inlined frame in the recording"

# same NAME COMMAND-ARGS...: one CPU, all CPUs and TSan print the same; TSan is silent
same() {
	local name=$1; shift
	local out=$TEST_TMP/$name
	taskset -c 0 "$TEPHRA" "$@" >"$out.cpu0" 2>"$out.cpu0.err" || {
		fail "$name: taskset -c 0 tephra $* failed: $(head -n 3 "$out.cpu0.err")"; return; }
	[ -s "$out.cpu0" ] || { fail "$name: no output"; return; }
	"$TEPHRA" "$@" >"$out.all" 2>"$out.all.err" || {
		fail "$name: tephra $* failed: $(head -n 3 "$out.all.err")"; return; }
	"$TSAN_BIN" "$@" >"$out.tsan" 2>"$out.tsan.err"
	local rc=$?
	if grep -q 'WARNING: ThreadSanitizer' "$out.tsan.err"; then
		fail "$name: ThreadSanitizer reported:"
		grep -m 1 -A 14 'WARNING: ThreadSanitizer' "$out.tsan.err"
		return
	elif [ "$rc" -ne 0 ]; then
		fail "$name: the TSan build failed (exit $rc): $(head -n 3 "$out.tsan.err")"
		return
	fi
	local run
	for run in all tsan; do
		if cmp -s "$out.cpu0" "$out.$run" && cmp -s "$out.cpu0.err" "$out.$run.err"; then
			echo "ok: $name: $run == one CPU ($(wc -c <"$out.cpu0") bytes)"
		else
			fail "$name: $run differs from the one-CPU run:"
			cmp "$out.cpu0" "$out.$run"
			diff "$out.cpu0.err" "$out.$run.err" | head -n 10
		fi
	done
}

same fold fold "$data"
same fold-inline fold --inline "$data"
same fold-srcline fold --srcline "$data"
same script script -i "$data"
same export export -f pprof -o - "$data"
finish
