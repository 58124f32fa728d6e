#!/usr/bin/env bash
# tephra trace folds offline traces: QEMU's own -singlestep exec log and a binary pc
# dump made from it (by this script, not by tephra).  Per function the result must equal
# QEMU's record (flat_oracle.py), and the whole profile must equal what the live plugin
# (tephra emu) gives for the same run.  Bad input fails with file and offset, no crash.
. "$TOP/tests/emu/lib.sh"
for g in wl sig; do
	if [ $g = wl ]; then cc_guest wl workload.c -O2; else cc_guest sig signals.c -O2; fi
	run_both $g || [ $g = sig ] || { cat emu.err; fail "tephra emu $g"; }
	env -i PATH="$PATH" qemu-riscv64 -singlestep -d exec,nochain -D $g.log ./$g >/dev/null 2>&1 </dev/null
	log_to_pcs $g.log $g.bin
	for tool in "$TEPHRA" "$TEPHRA_ASAN"; do
		[ -x "$tool" ] || continue
		"$tool" trace --elf $g -o $g.log.folded $g.log 2>trace.err || { cat trace.err; fail "trace $g.log"; }
		"$tool" trace --elf $g -o $g.bin.folded $g.bin 2>trace.err || { cat trace.err; fail "trace $g.bin"; }
		diff -u $g.log.folded $g.bin.folded || fail "$g: log and pc dump differ"
		# Offline, signal numbers are unknown: "[signal]" where the plugin says "[signal N]".
		sed 's/\[signal [0-9]*\]/[signal]/g' $g.folded >$g.live.folded
		diff -u $g.live.folded $g.bin.folded || fail "$g: offline differs from the live plugin"
	done
	python3 "$TOP/tests/emu/flat_oracle.py" $g $g.pcs $g.bin.folded || fail "$g flat profile"
done
# Standard input, raw mode.
"$TEPHRA" trace --elf wl --format pcs - <wl.bin >stdin.folded 2>/dev/null || fail "trace from stdin"
diff -q wl.bin.folded stdin.folded || fail "stdin differs"
"$TEPHRA" trace --elf wl --raw wl.bin >raw.folded 2>/dev/null || fail "trace --raw"
grep -Eqv '^(0x[0-9a-f]+;)*0x[0-9a-f]+ [0-9]+$' raw.folded && fail "raw frames are not all hex"
[ "$(total raw.folded)" = "$(total wl.bin.folded)" ] || fail "raw total"

# A log of multi-instruction blocks is flagged (QEMU 7.2 leaves executions unlogged).
env -i PATH="$PATH" qemu-riscv64 -d exec,nochain -D multi.log ./wl >/dev/null 2>&1 </dev/null
"$TEPHRA" trace --elf wl -o multi.folded multi.log 2>multi.err || fail "trace multi.log"
grep -q 'warning: .*multi-instruction blocks' multi.err || fail "no warning for a non-singlestep log"

# Bad input.
head -c 8003 wl.bin >cut.bin
"$TEPHRA_ASAN" trace --elf wl --format pcs cut.bin >/dev/null 2>err && fail "truncated dump accepted"
grep -q 'cut.bin: offset 0x1f40: truncated pc: 3 trailing bytes' err || { cat err; fail "truncated dump message"; }
printf 'Trace 0: 0x1 [0000/zz\n' >bad.log
"$TEPHRA_ASAN" trace --elf wl bad.log >/dev/null 2>err && fail "malformed log accepted"
grep -q 'bad.log: offset 0x0: malformed Trace line' err || { cat err; fail "malformed log message"; }
printf 'hello\n' >empty.log
"$TEPHRA_ASAN" trace --elf wl empty.log >/dev/null 2>err && fail "log without Trace lines accepted"
grep -q "no 'Trace' lines" err || { cat err; fail "empty log message"; }
"$TEPHRA_ASAN" trace --elf wl.log wl.bin >/dev/null 2>err && fail "non-ELF accepted"
grep -q 'wl.log: offset 0x0: not an ELF file' err || { cat err; fail "non-ELF message"; }
head -c 3000 wl >cutelf
"$TEPHRA_ASAN" trace --elf cutelf wl.bin >/dev/null 2>err
[ $? = 1 ] || fail "truncated ELF: exit status"
# Pcs outside the guest's code (random words) are counted, never crash.
head -c 80000 /dev/urandom >random.bin
"$TEPHRA_ASAN" trace --elf wl --format pcs random.bin >random.folded 2>err || { cat err; fail "random pcs"; }
[ "$(total random.folded)" = 10000 ] || fail "random pcs total"
echo ok
