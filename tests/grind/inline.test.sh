#!/usr/bin/env bash
# --inline: functions inlined into others appear as "name_[i]" frames, from the DWARF
# inline info Valgrind reads; callees of inlined code hang below the inlined frame.
# Nothing else changes: the same total with and without.
. "$(dirname "$0")/lib.sh"
build inline "$PROGS/inline.c"
cd "$TEST_TMP"
grind plain.folded -- ./inline
has_line plain.folded "inline;main;outer;work 2002"
no_match plain.folded '_\[i\]'
grind inl.folded --inline -- ./inline
has_line inl.folded "inline;main;outer;inl_[i];work 2002"
grep -qE '^inline;main;outer;spin_\[i\] [1-9][0-9]*$' inl.folded || fail "no spin_[i] frame"
no_match inl.folded '^inline;main;outer;work '
[ "$(total plain.folded)" = "$(total inl.folded)" ] || fail "totals differ"
