#!/usr/bin/env bash
# Client requests at run time: ZERO_STATS, TOGGLE_COLLECT, DUMP_STATS (callgrind's),
# TEPHRA_GRIND_SKIP_OBJ and TEPHRA_GRIND_STOP (ours).
. "$(dirname "$0")/lib.sh"
build requests "$PROGS/requests.c"
cd "$TEST_TMP"
grind r.folded -- ./requests
[ -f r.folded.1 ] || fail "no dump file r.folded.1"
has_line r.folded.1 "main;work 4002"
[ "$(grep -c 'work [0-9]*$' r.folded.1)" = 1 ] || { cat r.folded.1; fail "other work lines in the dump"; }
no_match r.folded.1 '^main;a'
has_line r.folded "requests;main;work 6002"
has_line r.folded "requests;main;cmp;work 4004"
no_match r.folded 'qsort'
[ "$(grep -c 'work [0-9]*$' r.folded)" = 2 ] || { grep work r.folded; fail "unexpected work lines"; }
