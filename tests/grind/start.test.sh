#!/usr/bin/env bash
# --start=off plus a start request deep inside the program: the stack is rebuilt from
# a native unwind, so later returns go to the real callers.  No phantom roots, no
# "???" or [unknown] roots, nothing rooted at the request site.
. "$(dirname "$0")/lib.sh"
build wrappers "$PROGS/wrappers.c"
build deeprec "$PROGS/deeprec.c"
build trampoline "$PROGS/trampoline.c"
gcc $CFLAGS_PROG -shared -fPIC -o "$TEST_TMP/libskip.so" "$PROGS/skiplib.c" || fail "cannot build libskip.so"
build skipmain "$PROGS/skipmain.c" -L"$TEST_TMP" -lskip -Wl,-rpath,'$ORIGIN'
cd "$TEST_TMP"
roots_ok() { # roots_ok FILE PROG: every stack starts with PROG's root frame, then no
	# frame that belongs only deeper (main or below main)
	others=$(grep -v "^$2;" "$1")
	[ -z "$others" ] || { echo "$others" | head; fail "$1: stacks without the root $2"; }
	no_match "$1" '^[^;]*;(\[unknown\]|\?\?\?|w[123]|rec|wrapper|lib_|cb|work|target)[; ]'
}

# Three wrappers deep (our own request), then every wrapper returns and works.
grind w.folded --start=off -- ./wrappers
has_line w.folded "wrappers;main;w1;w2;w3;work 2002"
has_line w.folded "wrappers;main;w1;w2;work 4002"
has_line w.folded "wrappers;main;w1;work 6002"
has_line w.folded "wrappers;main;work 8002"
roots_ok w.folded wrappers

# At the bottom of a recursion 100 deep that ran uninstrumented (callgrind's request).
grind r.folded --start=off -- ./deeprec
recs=$(printf 'rec;%.0s' $(seq 101))
has_line r.folded "deeprec;main;${recs}work 2002"
has_line r.folded "deeprec;main;work 4002"
# Each rec returns once: 101 distinct depths, each charged its epilogue.
[ "$(grep -c '^deeprec;main;rec' r.folded)" = 102 ] || fail "expected 101 rec depths + the work line"
roots_ok r.folded deeprec

# Through an anonymous executable mapping (hand-made trampoline) between main and
# the request.
grind t.folded --start=off -- ./trampoline
has_line t.folded "trampoline;main;[unknown];wrapper;work 2002"
has_line t.folded "trampoline;main;work 4002"
roots_ok t.folded trampoline

# A program that never asks to start: nothing is counted, and that is said with why
# (issue 27 §3), by the launcher and with --no-children by the tool.  skipmain asks
# only when given "start"; with it, no such message.
for mode in "" --no-children; do
	"$TEPHRA" grind --no-svg $mode -o never.folded --start=off -- ./skipmain > /dev/null 2> never.err ||
		fail "grind --start=off $mode ./skipmain failed: $(cat never.err)"
	[ -s never.folded ] && fail "$mode: counted without a start request: $(head -n 3 never.folded)"
	grep -q "never.folded: nothing was counted: with --start=off counting waits for a start request (CALLGRIND_START_INSTRUMENTATION or TEPHRA_GRIND_START), and .* made none$" never.err ||
		fail "$mode: no 'nothing was counted': $(cat never.err)"
done
for f in w r t; do
	grep -q 'nothing was counted' $f.folded.err && fail "$f: 'nothing was counted' after a start request"
done

# Inside a function of a skipped library.
grind s.folded --start=off --skip-obj=libskip.so -- ./skipmain start
has_line s.folded "skipmain;main;cb;work 4002"
has_line s.folded "skipmain;main;work 12004"
no_match s.folded 'lib_'
roots_ok s.folded skipmain

# Start, stop, start again; a second start is a no-op; a thread blocked in a system
# call when instrumentation starts rebuilds its stack when it runs again.
build restart "$PROGS/restart.c" -lpthread
grind re.folded --start=off -- ./restart
has_line re.folded "restart;main;outer;inner;work 4004"
has_line re.folded "restart;worker;leaf;work 6002"
no_match re.folded 'work (10002|12004)$'
others=$(grep -vE '^restart;(main|worker|\(below main\))[; ]' re.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks rooted elsewhere"; }

# Through a thunk in code in no object that keeps no frame pointer and has no CFI,
# in a program with frame pointers and in one without: Valgrind's unwinder guessed
# from %rbp and lost main (the stack started below main) or stopped at the thunk (a
# root [unknown]); the caller found on the stack replaces the guess (tg_unwind.c).
build thunkstart "$PROGS/thunkstart.c"
build thunkstart-nofp "$PROGS/thunkstart.c" -fomit-frame-pointer
for p in thunkstart thunkstart-nofp; do
	grind ts.folded --start=off -- ./$p
	has_line ts.folded "$p;main;[unknown];target;work 2002"
	has_line ts.folded "$p;main;work 4002"
	roots_ok ts.folded $p
	grep -q ', 0 underflows repaired,' ts.folded.err || { cat ts.folded.err; fail "$p: underflows"; }
done
