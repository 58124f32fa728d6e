#!/usr/bin/env bash
# Argument errors of the commands that run something (grind, record, emu): refused before
# the run, with one line saying which argument and what is wrong; never a run that ends
# without a profile, never a stale profile drawn.  Exit 2 for a malformed argument, 1 for
# a file that cannot be read or written.
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
printf 'x' > guest   # stands for a guest program: emu checks it exists before running QEMU

# grind: option values are checked before Valgrind is looked for.
expect 2 "no program to run" "$T" grind
expect 2 "--start takes on or off, not 'maybe'" "$T" grind --start=maybe true
expect 2 "--tail-calls takes replace or nest, not ''" "$T" grind --tail-calls= true
expect 2 "--collect-atstart takes yes or no" "$T" grind --collect-atstart=1 true
expect 2 "-o: an empty file name" "$T" grind -o '' true
expect 2 "--svg: an empty file name" "$T" grind --svg= true
expect 2 "'--' is not a Valgrind option" "$T" grind --valgrind-opt=-- true
expect 2 "'--tool=memcheck' is not a Valgrind option" "$T" grind --valgrind-opt=--tool=memcheck true
expect 2 "'--out=x' is not a Valgrind option" "$T" grind --valgrind-opt=--out=x true
expect 2 "'x' is not a Valgrind option" "$T" grind --valgrind-opt=x true
expect 2 "" "$T" grind --bogus true
expect 2 "" "$T" grind -o
if want_tool valgrind "grind's output errors" &&
	{ [ -f "$TOP/build/grind/lib/VERSION" ] || partial "the grind tool is not built: grind's output errors not checked"; }; then
	expect 1 "/nonexistent/x: cannot write: No such file" "$T" grind -o /nonexistent/x true
	expect 1 "/nonexistent/x.svg: cannot write: No such file" "$T" grind --svg=/nonexistent/x.svg true
	expect 1 "$TEST_TMP: cannot write: Is a directory" "$T" grind --svg="$TEST_TMP" true
	[ -e grind.folded ] && fail "grind ran although its SVG could not be written"
	expect 1 "cannot run '/nonexistent/vg --version'" "$T" grind --valgrind=/nonexistent/vg true
fi

# emu: checked before QEMU runs.
expect 2 "" "$T" emu
expect 2 "" "$T" emu --bogus -- ./guest
expect 2 "no guest program in the command" "$T" emu -- -L
expect 2 "no guest program in the command" "$T" emu -- qemu-riscv64 -cpu
expect 2 "drop -plugin" "$T" emu -- -plugin x ./guest
expect 2 "--budget: '' is not a whole number" "$T" emu --budget '' -- ./guest
expect 2 "--budget: 99999999999999999999 is out of range" "$T" emu --budget 99999999999999999999 -- ./guest
expect 2 "--checkpoint: '1e6' is not a whole number" "$T" emu --checkpoint 1e6 -- ./guest
expect 2 "-o: an empty file name" "$T" emu -o '' -- ./guest
expect 1 "/nonexistent/guest: cannot open the guest" "$T" emu -- /nonexistent/guest
expect 1 "/nonexistent/x: cannot write" "$T" emu -o /nonexistent/x -- ./guest
expect 2 "cannot hold a comma" "$T" emu -o a,b -- ./guest
[ -e a,b ] && fail "emu -o a,b left a file"
# Another machine's program (the host's, x86-64 or whatever readelf says it is) is
# refused before QEMU runs: it used to leave empty x86prog.folded and .svg and say "wrote".
cp /bin/true x86prog
if readelf -h x86prog 2>/dev/null | grep -q 'Machine:.*RISC-V'; then
	fail "premise: the host's /bin/true is a RISC-V program"
fi
expect 1 "x86prog: offset 0x12: ELF machine" "$T" emu -- ./x86prog
grep -q "tephra emu runs RISC-V ELF programs" err.txt || fail "emu x86prog: $(cat err.txt)"
grep -q "wrote" err.txt && fail "emu x86prog says it wrote a profile"
[ -e x86prog.folded ] || [ -e x86prog.svg ] && fail "emu x86prog left a profile"
expect 1 "guest: offset 0x0: not an ELF file" "$T" emu -- ./guest

# record: checked before perf runs.
expect 2 "no command to profile" "$T" record
expect 2 "-F: 'abc' is not a whole number" "$T" record -F abc -- true
expect 2 "-F: 0 is out of range" "$T" record -F 0 -- true
expect 2 "-F: '-5' is not a whole number" "$T" record -F -5 -- true
expect 2 "-d: an empty file name" "$T" record -d '' -- true
expect 2 "-o: an empty file name" "$T" record -o '' -- true
expect 2 "--folded: an empty file name" "$T" record --folded '' -- true
expect 2 "-e: an empty event name" "$T" record -e '' -- true
expect 2 "the graph needs a file" "$T" record -o - -- true
expect 2 "--width: 5 is out of range" "$T" record --width 5 -- true
expect 1 "/nonexistent/x: cannot write" "$T" record --folded /nonexistent/x -- true
expect 1 "/nonexistent/y.svg: cannot write" "$T" record -o /nonexistent/y.svg -- true
expect 1 "/nonexistent/p.data: cannot write" "$T" record -d /nonexistent/p.data -- true
expect 1 "$TEST_TMP: cannot write: Is a directory" "$T" record -d "$TEST_TMP" -- true
# A perf that fails leaves the last recording in place: it must not be drawn again.
if perf_can_record -e cpu-clock || partial "$PERF_PROBE_ERR: a failed record's leftovers not checked"; then
	busy='i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
	"$T" record -F 4999 -d old.data -o old.svg -- sh -c "$busy" > /dev/null 2>&1 ||
		fail "a plain record failed"
	rm -f old.svg
	expect 1 "wrote no new old.data" "$T" record -d old.data -o old.svg -e no-such-event -- true
	[ -e old.svg ] && fail "the stale old.data was drawn"
fi
echo "ok: $ncases cases"
