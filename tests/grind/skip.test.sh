#!/usr/bin/env bash
# --skip-obj: the library's functions are never frames; its instructions are charged to
# its nearest caller (main) and its callback shows under main; nothing is lost.
. "$(dirname "$0")/lib.sh"
gcc $CFLAGS_PROG -shared -fPIC -o "$TEST_TMP/libskip.so" "$PROGS/skiplib.c" || fail "cannot build libskip.so"
build skipmain "$PROGS/skipmain.c" -L"$TEST_TMP" -lskip -Wl,-rpath,'$ORIGIN'
cd "$TEST_TMP"
grind plain.folded -- ./skipmain
has_line plain.folded "skipmain;main;lib_outer;lib_inner;work 2002"
has_line plain.folded "skipmain;main;lib_outer;cb;work 4002"
grind skip.folded --skip-obj=libskip.so -- ./skipmain
has_line skip.folded "skipmain;main;cb;work 4002"
has_line skip.folded "skipmain;main;work 8004"
no_match skip.folded 'lib_'
[ "$(total plain.folded)" = "$(total skip.folded)" ] || fail "skipping changed the total"
# Full paths and globs match too.
grind glob.folded --skip-obj="$TEST_TMP/libsk*" -- ./skipmain
no_match glob.folded 'lib_'
for f in skip glob; do
	grep -q 'matched no object' $f.folded.err && fail "$f: a warning for a pattern that matched: $(cat $f.folded.err)"
done
# A pattern that matches no object the program ran is said to (issue 27 §3), by the
# launcher (from the processes' files) and with --no-children by the tool; the
# profile is the plain one.  Premise: ldd lists no such library.
ldd ./skipmain | grep -q libnothing && fail "premise: skipmain loads a libnothing"
grind none.folded --skip-obj=libskip.so --skip-obj='libnothing*' -- ./skipmain
grep -qxF "tephra grind: warning: --skip-obj=libnothing* matched no object ./skipmain ran code in: nothing was skipped for it" none.folded.err ||
	fail "no warning for --skip-obj=libnothing*: $(cat none.folded.err)"
[ "$(grep -c 'matched no object' none.folded.err)" = 1 ] || fail "libskip.so warned about: $(cat none.folded.err)"
grind nonech.folded --no-children --skip-obj='libnothing*' -- ./skipmain
grep -qxF "tephra grind: warning: --skip-obj=libnothing* matched no object the program ran code in: nothing was skipped for it" nonech.folded.err ||
	fail "--no-children: no warning for --skip-obj=libnothing*: $(cat nonech.folded.err)"
[ "$(total nonech.folded)" = "$(total plain.folded)" ] || fail "an unmatched pattern changed the total"

# The shape of python3 over a shared libpython (progs/entrymain.c): main tail-calls
# the library's entry, which calls libc and back into the program, and starts a
# thread in the library.  Skipping the library keeps the entry as a frame, "main"
# (the thread's as "[libentry.so]"), so calls from the skipped code into shown code
# hang below it: they used to become roots (malloc, cb...), and the library's own
# instructions went to "(below main)".
gcc $CFLAGS_PROG -shared -fPIC -Wl,-z,now -o "$TEST_TMP/libentry.so" "$PROGS/entrylib.c" -lpthread ||
	fail "cannot build libentry.so"
build entrymain "$PROGS/entrymain.c" -L"$TEST_TMP" -lentry -Wl,-rpath,'$ORIGIN' -Wl,-z,now
grind eplain.folded -- ./entrymain
has_line eplain.folded "entrymain;lib_main;cb;work 4002"
has_line eplain.folded "entrymain;lib_thread;cb;work 4002"
grind eskip.folded --skip-obj=libentry.so -- ./entrymain
has_line eskip.folded "entrymain;main;cb;work 4002"
has_line eskip.folded "entrymain;[libentry.so];cb;work 4002"
grep -q '^entrymain;main;malloc[; ]' eskip.folded || fail "malloc is not below main"
grep -q '^entrymain;main;free[; ]' eskip.folded || fail "free is not below main"
grep -qE '^entrymain;main [0-9]+$' eskip.folded || fail "the library's own instructions are not main's"
no_match eskip.folded 'lib_main|lib_thread'
others=$(grep -vE '^entrymain;(main|\[libentry\.so\]|\(below main\))[; ]' eskip.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks rooted elsewhere"; }
