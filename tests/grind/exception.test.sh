#!/usr/bin/env bash
# A C++ exception thrown three calls deep and caught in main: the landing pad in main
# pops every frame between (g1, g2, g3 and the unwinder's own), so the catch block and
# what follows are charged to main.  C++ names follow the folding rules.
. "$(dirname "$0")/lib.sh"
command -v g++ >/dev/null || skip "g++ is not installed"
g++ $CFLAGS_PROG -o "$TEST_TMP/exception" "$PROGS/exception.cc" || fail "cannot build"
cd "$TEST_TMP"
grind ex.folded -- ./exception
has_line ex.folded "exception;main;g1;g2;g3;work 2002"
has_line ex.folded "exception;main;work 10004"
no_match ex.folded '_Unwind_RaiseException;.*work|g3;.*;main'

# Demangled C++ names fold as stackcollapse-perf.pl folds perf's (src/fold's rules).
g++ $CFLAGS_PROG -o "$TEST_TMP/cxxnames" "$PROGS/cxxnames.cc" || fail "cannot build cxxnames"
grind names.folded -- ./cxxnames
has_line names.folded "cxxnames;main;ns::S::run;work 2002"
has_line names.folded "cxxnames;main;(anonymous namespace)::helper;work 4002"
has_line names.folded "cxxnames;main;void ns::twice<long>;work 6002"
