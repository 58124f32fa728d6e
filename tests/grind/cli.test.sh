#!/usr/bin/env bash
# The launcher: folded + SVG by default, the program's exit status and output pass
# through, clear errors for bad options, no program, and a Valgrind version other than
# the one the tool was built against.  Runs the ASan+UBSan build too.
. "$(dirname "$0")/lib.sh"
build calls "$PROGS/calls.c"
build closestderr "$PROGS/closestderr.c"
cd "$TEST_TMP"
for t in "$TEPHRA" "$TEPHRA_ASAN"; do
	[ -x "$t" ] || continue
	rm -f grind.folded grind.svg
	"$t" grind ./calls 2>err || { cat err; fail "$t grind ./calls failed"; }
	has_line grind.folded "calls;main;b;work 4002"
	grep -q '<svg' grind.svg || fail "no SVG written"
	grep -q 'work' grind.svg || fail "SVG without the work frame"
	# One way to draw: the graph is tephra flamegraph's of the folded file.
	"$t" flamegraph --title "tephra grind: ./calls" --countname instructions grind.folded >fg.svg ||
		fail "tephra flamegraph grind.folded failed"
	cmp -s grind.svg fg.svg || fail "grind.svg differs from tephra flamegraph's graph of grind.folded"
	grep -qE '^tephra grind: .*grind.folded: [0-9]+ instructions counted, [0-9]+ stacks, deepest stack [0-9]+ frames, 0 underflows repaired, 1 frames seeded$' err ||
		{ cat err; fail "no summary line"; }
	"$t" grind -q --no-svg -o q.folded ./calls 2>err || fail "-q run failed"
	[ ! -s err ] || { cat err; fail "-q printed something"; }

	# The summary survives a program that closes its own stderr at exit (coreutils'
	# close_stdout does, xz too): it was written to fd 2, which failed with EBADF.
	for prog in ./closestderr "cat /dev/null"; do
		"$t" grind --no-svg -o ce.folded $prog 2>err || { cat err; fail "$t grind $prog failed"; }
		grep -qE '^tephra grind: .*ce\.folded: [0-9]+ instructions counted' err ||
			fail "no summary after $prog closed its stderr: $(cat err)"
		[ "$prog" = ./closestderr ] && has_line ce.folded "closestderr;main;work 2002"
	done

	# Exit status of the program.
	printf 'int main(void) { return 3; }\n' > three.c && gcc -o three three.c
	"$t" grind --no-svg -o three.folded ./three 2>/dev/null; rc=$?
	[ $rc = 3 ] || fail "exit status $rc, not the program's 3"
	# Also when our caller ignores SIGCHLD (inherited across exec: the kernel would reap
	# Valgrind itself and waitpid fail with ECHILD).
	(trap '' CHLD; exec "$t" grind --no-svg -o three.folded ./three) 2>err; rc=$?
	[ $rc = 3 ] || { cat err; fail "with SIGCHLD ignored: exit status $rc, not the program's 3"; }

	# Errors.
	"$t" grind 2>err; [ $? = 2 ] && grep -q 'no program to run' err || fail "no program: $(cat err)"
	"$t" grind --start=maybe ./calls 2>err; [ $? = 2 ] && grep -q -- '--start takes on or off' err ||
		fail "bad --start: $(cat err)"
	mkdir -p fakelib && echo valgrind-0.0.1 > fakelib/VERSION
	TEPHRA_GRIND_LIB=$TEST_TMP/fakelib "$t" grind ./calls 2>err; [ $? = 1 ] || fail "version mismatch accepted"
	grep -q "the installed Valgrind is valgrind-.* but the tool in .*fakelib was built against valgrind-0.0.1" err ||
		fail "unclear version message: $(cat err)"
	# A VALGRIND_LIB of the caller's (here a directory with no memcheck, the tool
	# `valgrind --version` starts) changes neither the version check nor the run.
	mkdir -p emptylib
	VALGRIND_LIB=$TEST_TMP/emptylib "$t" grind --no-svg -o vl.folded ./calls 2>err ||
		{ cat err; fail "an inherited VALGRIND_LIB broke the run"; }
	has_line vl.folded "calls;main;b;work 4002"
	"$t" grind -o /nonexistent/x.folded ./calls 2>err; [ $? = 1 ] && grep -q '/nonexistent/x.folded: cannot write: No such file' err ||
		fail "unwritable output: $(cat err)"
	TEPHRA_GRIND_LIB=$TEST_TMP/nowhere "$t" grind ./calls 2>err; [ $? = 1 ] && grep -q 'nowhere' err ||
		fail "missing lib dir: $(cat err)"
done
