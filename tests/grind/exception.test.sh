#!/usr/bin/env bash
# A C++ exception thrown three calls deep and caught in main: the landing pad in main
# pops every frame between (g1, g2, g3 and the unwinder's own), so the catch block and
# what follows are charged to main.
. "$(dirname "$0")/lib.sh"
command -v g++ >/dev/null || skip "g++ is not installed"
g++ $CFLAGS_PROG -o "$TEST_TMP/exception" "$PROGS/exception.cc" || fail "cannot build"
cd "$TEST_TMP"
grind ex.folded -- ./exception
has_line ex.folded "main;g1;g2;g3;work 2002"
has_line ex.folded "main;work 10004"
no_match ex.folded '_Unwind_RaiseException;.*work|g3;.*;main'
