#!/usr/bin/env bash
# --skip-obj: the library's functions are never frames; its instructions are charged to
# its nearest caller (main) and its callback shows under main; nothing is lost.
. "$(dirname "$0")/lib.sh"
gcc $CFLAGS_PROG -shared -fPIC -o "$TEST_TMP/libskip.so" "$PROGS/skiplib.c" || fail "cannot build libskip.so"
build skipmain "$PROGS/skipmain.c" -L"$TEST_TMP" -lskip -Wl,-rpath,'$ORIGIN'
cd "$TEST_TMP"
grind plain.folded -- ./skipmain
has_line plain.folded "main;lib_outer;lib_inner;work 2002"
has_line plain.folded "main;lib_outer;cb;work 4002"
grind skip.folded --skip-obj=libskip.so -- ./skipmain
has_line skip.folded "main;cb;work 4002"
has_line skip.folded "main;work 8004"
no_match skip.folded 'lib_'
[ "$(total plain.folded)" = "$(total skip.folded)" ] || fail "skipping changed the total"
# Full paths and globs match too.
grind glob.folded --skip-obj="$TEST_TMP/libsk*" -- ./skipmain
no_match glob.folded 'lib_'
