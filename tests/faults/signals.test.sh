#!/usr/bin/env bash
# SIGINT and SIGTERM at random points of every command that writes a file (issue 27,
# "never lose data"): strace injects the signal at the Nth call of one system call of
# the command (strace -e inject=SYSCALL:signal=SIG:when=N), SYSCALL and N drawn by a
# seeded PRNG from the calls an uninterrupted run made (strace -c), so each point is
# the same at every run and none depends on timing.  Whatever the point, the output
# path holds either the file that was there before or the uninterrupted run's bytes
# (never a part), no hidden file of ours is left beside it (before: a signal during the
# write left .NAME.tephra-XXXXXXXX), and the exit status is 0 or 128 + the signal.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "strace is not installed"
strace -qq -o /dev/null -e inject=write:signal=TERM:when=1 /bin/echo x >/dev/null 2>&1
[ $? = 143 ] || skip "strace cannot inject signals here"
make_inputs
# a profile of some size: many writes in each output
python3 -c '
import random
r = random.Random(7)
for i in range(3000):
    print(";".join("f%d" % r.randrange(40) for _ in range(r.randrange(1, 12))), r.randrange(1, 1000))
' >big.folded
chmod a-w big.folded

NAMES="flamegraph diff diff-folded heatmap export-pprof export-callgrind export-speedscope"
[ $HAVE_EMU = 1 ] && NAMES="$NAMES trace symbolize"
run() { # run NAME OUT [strace options...]: the command writing OUT, under strace if any
	local name=$1 out=$2; shift 2
	local pre=()
	[ $# -gt 0 ] && pre=(strace ${FOLLOW--f} -qq "$@" --)
	case $name in
	flamegraph) "${pre[@]}" "$TEPHRA" flamegraph -o "$out" big.folded;;
	diff) "${pre[@]}" "$TEPHRA" diff -o "$out" big.folded in/a.folded;;
	diff-folded) "${pre[@]}" "$TEPHRA" diff --folded -o "$out" big.folded in/a.folded;;
	heatmap) "${pre[@]}" "$TEPHRA" heatmap -o "$out" in/perf.data;;
	export-*) "${pre[@]}" "$TEPHRA" export -f "${name#export-}" -o "$out" in/perf.data;;
	trace) "${pre[@]}" "$TEPHRA" trace --elf in/guest -o "$out" in/guest.log;;
	symbolize) "${pre[@]}" "$TEPHRA" symbolize --elf in/guest -o "$out" in/raw.folded;;
	esac
}

RANDOM=27 # the seed: the same points at every run
for name in $NAMES; do
	run "$name" "$name.ref" 2>/dev/null || die "$name: the uninterrupted run failed"
	# the system calls of an uninterrupted run, and how many times each was made
	run "$name" probe.out -c -o "$name.calls" >/dev/null 2>&1 || die "$name under strace -c failed"
	# columns: % time, seconds, usecs/call, calls, [errors,] syscall
	mapfile -t calls < <(awk 'NF >= 5 && $4 ~ /^[0-9]+$/ && $NF != "total" { print $NF, $4 }' "$name.calls" |
		grep -vE '^(execve|exit_group|rt_sigreturn|wait4) ')
	[ ${#calls[@]} -gt 5 ] || die "premise: strace -c saw no system calls of $name"
	interrupted=0
	for trial in 1 2 3 4 5 6; do
		pick=${calls[RANDOM % ${#calls[@]}]}
		sc=${pick% *} max=${pick#* }
		# half of the points fall in the write of the output
		if [ $((trial % 2)) = 0 ]; then
			sc=write max=$(grep -c . "$name.ref"); [ "$max" -gt 50 ] && max=50
		fi
		n=$((1 + RANDOM % max))
		sig=$([ $((RANDOM % 2)) = 0 ] && echo INT || echo TERM)
		echo "precious $name" >"$name.out"
		run "$name" "$name.out" -o /dev/null -e inject="$sc:signal=$sig:when=$n" >/dev/null 2>"$name.err"; rc=$?
		what="$name, SIG$sig at $sc #$n"
		case $rc in
		0) cmp -s "$name.out" "$name.ref" || fail "$what: exit 0 but the output differs from the uninterrupted run's";;
		130|143)
			[ $rc = $([ $sig = INT ] && echo 130 || echo 143) ] || fail "$what: exit $rc"
			interrupted=$((interrupted + 1))
			if ! cmp -s "$name.out" "$name.ref"; then
				[ "$(cat "$name.out")" = "precious $name" ] ||
					fail "$what: the output is neither the old file nor a whole one: $(head -c 80 "$name.out")"
			fi;;
		*) fail "$what: exit $rc: $(head -c 300 "$name.err")";;
		esac
		left=$(ls -A | grep -E '\.tephra-')
		[ -z "$left" ] || { fail "$what: left $left"; rm -f ./.*.tephra-*; }
		echo "$what: exit $rc"
	done
	echo "$name: $interrupted of 6 seeded points interrupted it"
	# and on the return of the openat that creates the hidden file (before: created,
	# not yet named, so left behind); strace without -f: the main thread's openats
	FOLLOW= run "$name" probe.out -o "$name.opens" -e trace=openat >/dev/null 2>&1
	n=$(grep -n '\.tephra-' "$name.opens" | head -n 1 | cut -d: -f1)
	[ -n "$n" ] || die "premise: $name creates no hidden file"
	echo "precious $name" >"$name.out"
	FOLLOW= run "$name" "$name.out" -o /dev/null -e inject=openat:signal=TERM:when="$n" >/dev/null 2>&1
	rc=$?
	# export's main thread opens a varying number of files (the symbol loading its
	# helper threads share): there the point may miss (exit 0, checked below)
	case $name in export-*) ;; *)
		[ $rc = 143 ] || fail "$name, SIGTERM on the hidden file's openat (#$n): exit $rc, not 143 (premise: the same openats at every run)";;
	esac
	left=$(ls -A | grep -E '\.tephra-')
	[ -z "$left" ] || { fail "$name, SIGTERM on the hidden file's openat (#$n): left $left"; rm -f ./.*.tephra-*; }
	[ "$(cat "$name.out")" = "precious $name" ] || cmp -s "$name.out" "$name.ref" ||
		fail "$name, SIGTERM on the hidden file's openat: a part written"
	echo "$name, SIGTERM at the hidden file's openat #$n: checked"
done

# record, grind, emu: the signal to tephra alone (strace without -f: its own calls, not
# perf's, Valgrind's or QEMU's), at a seeded point of its run, the program's included.
# Whatever the point: exit 0, 130 or 143, the previous output kept or a whole one in
# its place, no hidden file, no directory of ours left in TMPDIR.
WNAMES="record"
[ $HAVE_GRIND = 1 ] && WNAMES="$WNAMES grind"
[ $HAVE_EMU = 1 ] && WNAMES="$WNAMES emu"
wrun() { # wrun NAME [strace options...]
	local name=$1; shift
	local pre=()
	[ $# -gt 0 ] && pre=(strace -qq "$@" --)
	case $name in
	record) "${pre[@]}" "$TEPHRA" record -q -d w.data -o w.out -- sh -c "$LOOP";;
	grind) "${pre[@]}" "$TEPHRA" grind -q --no-svg -o w.out /bin/true;;
	emu) "${pre[@]}" env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o w.out -- in/guest;;
	esac </dev/null
}
for name in $WNAMES; do
	kind=$([ $name = record ] && echo svg || echo folded)
	wrun "$name" -c -o "$name.calls" >/dev/null 2>&1 || die "$name under strace -c failed"
	mapfile -t calls < <(awk 'NF >= 5 && $4 ~ /^[0-9]+$/ && $NF != "total" { print $NF, $4 }' "$name.calls" |
		grep -vE '^(execve|exit_group|rt_sigreturn) ')
	[ ${#calls[@]} -gt 5 ] || die "premise: strace -c saw no system calls of $name"
	for trial in 1 2 3 4; do
		pick=${calls[RANDOM % ${#calls[@]}]}
		sc=${pick% *} max=${pick#* }
		n=$((1 + RANDOM % max))
		sig=$([ $((RANDOM % 2)) = 0 ] && echo INT || echo TERM)
		echo "precious $name" >w.out
		wrun "$name" -o /dev/null -e inject="$sc:signal=$sig:when=$n" >/dev/null 2>"$name.err"; rc=$?
		what="$name, SIG$sig at $sc #$n"
		case $rc in
		0|130|143) ;;
		*) fail "$what: exit $rc: $(head -c 300 "$name.err")";;
		esac
		if [ "$(cat w.out)" != "precious $name" ]; then
			whole w.out "$kind" || fail "$what: w.out is neither the old file nor a whole $kind"
		fi
		[ $rc != 0 ] || [ "$(cat w.out)" != "precious $name" ] || fail "$what: exit 0, nothing written"
		left=$(ls -A . tmp | grep -E '\.tephra-|^tephra-')
		[ -z "$left" ] || { fail "$what: left $left"; rm -rf ./.*.tephra-* tmp/tephra-*; }
		echo "$what: exit $rc"
	done
done
exit $((failures > 0))
