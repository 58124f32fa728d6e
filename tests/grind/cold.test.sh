#!/usr/bin/env bash
# The .cold part gcc splits off a function folds into the function; --keep-cold keeps it.
. "$(dirname "$0")/lib.sh"
gcc -O2 -g -fno-inline -fno-optimize-sibling-calls -o "$TEST_TMP/cold" "$PROGS/cold.c" || fail "cannot build"
nm "$TEST_TMP/cold" | grep -q ' hot.cold$' || skip "this gcc made no hot.cold"
cd "$TEST_TMP"
grind fold.folded -- ./cold
has_line fold.folded "cold;main;hot;rare;work 2002"
has_line fold.folded "cold;main;hot;work 6004"
no_match fold.folded '\.cold'
grind keep.folded --keep-cold -- ./cold
has_line keep.folded "cold;main;hot.cold;rare;work 2002"
has_line keep.folded "cold;main;hot.cold;work 2002"
has_line keep.folded "cold;main;hot;work 4002"
[ "$(total fold.folded)" = "$(total keep.folded)" ] || fail "totals differ"
