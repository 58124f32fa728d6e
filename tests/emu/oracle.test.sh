#!/usr/bin/env bash
# tests/guests/workload.c at four optimisation settings: per function, the instructions
# tephra emu charges to it as the leaf frame must equal the number of instructions QEMU
# executed inside its symbol (QEMU's -singlestep exec log, see flat_oracle.py), and the
# stacks must have the shapes the program dictates.
. "$TOP/tests/emu/lib.sh"
i=0
for flags in "-O2" "-O2 -msave-restore" "-O0" "-Os -march=rv64gc"; do
	i=$((i + 1))
	g=wl$i
	cc_guest $g workload.c $flags
	run_both $g || { cat emu.err; fail "tephra emu ($flags)"; }
	python3 "$TOP/tests/emu/flat_oracle.py" $g $g.pcs $g.folded || fail "flat profile ($flags)"
	grep -q 'underflows 0,' emu.err || { cat emu.err; fail "underflows ($flags)"; }
	grep -q 'non-local pops 0,' emu.err && fail "longjmp out of deep() popped nothing ($flags)"
	m='_start;__libc_start_main_impl;__libc_start_call_main;main'
	# deep(16) nests 17 frames, then longjmp leaves them all.
	d17=$(printf ';deep%.0s' $(seq 17))
	grep -q "^$m$d17 " $g.folded || fail "17 nested deep frames missing ($flags)"
	grep -q "$d17;deep" $g.folded && fail "more than 17 deep frames ($flags)"
	grep -q "^$m;fib;fib;fib;fib;fib;fib;fib;fib;fib;fib;fib " $g.folded ||
		fail "fib recursion depth ($flags)"
	# qsort tail-calls __qsort_r: the comparator runs under whichever is left.
	grep -Eq "^$m;(qsort|__qsort_r);.*;cmp_int " $g.folded || fail "comparator under qsort ($flags)"
	case $flags in
	-O2*)
		# gcc turns these returns into jumps: tail calls replace the caller.
		grep -q "^$m;triple " $g.folded || fail "tail call to triple ($flags)"
		grep -q "tail_caller;triple" $g.folded && fail "tail call nested ($flags)"
		grep -q "^$m;is_odd " $g.folded || fail "mutual tail recursion ($flags)"
		grep -Eq "is_even;is_odd|is_odd;is_even" $g.folded && fail "mutual tail recursion nested ($flags)"
		;;
	-O0)
		grep -q "^$m;tail_caller;triple " $g.folded || fail "plain call ($flags)"
		grep -q "is_even;is_odd;is_even" $g.folded || fail "plain mutual recursion ($flags)"
		;;
	esac
	case $flags in
	*save-restore*)
		grep -q ';__riscv_save_[0-9]* ' $g.folded || fail "millicode called through t0 ($flags)"
		grep -Eq ';__riscv_save_[0-9]*;' $g.folded && fail "millicode frame left on the stack ($flags)"
		;;
	esac
done
echo ok
