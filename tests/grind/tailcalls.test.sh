#!/usr/bin/env bash
# A tail call (jmp to another function's entry) replaces the caller's frame; with
# --tail-calls=nest it nests under it, as callgrind shows it.  Counts by hand: tailer is
# mov+jmp (2), work(1000) 2002, work(2000) 4002.
. "$(dirname "$0")/lib.sh"
build tailcall "$PROGS/tailcall.c"
cd "$TEST_TMP"
grind replace.folded -- ./tailcall
has_line replace.folded "tailcall;main;caller;tailer 2"
has_line replace.folded "tailcall;main;caller;work 2002"
has_line replace.folded "tailcall;main;work 4002"
no_match replace.folded 'tailer;work'
grind nest.folded --tail-calls=nest -- ./tailcall
has_line nest.folded "tailcall;main;caller;tailer 2"
has_line nest.folded "tailcall;main;caller;tailer;work 2002"
has_line nest.folded "tailcall;main;work 4002"
[ "$(total replace.folded)" = "$(total nest.folded)" ] || fail "totals differ between modes"
