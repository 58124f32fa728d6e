#!/usr/bin/env bash
# A forked child writes its own file (FILE.PID) with only what it ran after the fork;
# a program that execs writes its file at the exec.
. "$(dirname "$0")/lib.sh"
build fork "$PROGS/fork.c"
cd "$TEST_TMP"
grind fork.folded -- ./fork
has_line fork.folded "main;work 4002"
no_match fork.folded 'work 2002$'
child=$(ls fork.folded.* 2>/dev/null | grep -E '\.[0-9]+$')
[ -n "$child" ] || fail "no child file fork.folded.PID"
has_line "$child" "main;work 2002"
no_match "$child" 'work 4002$'

# exec replaces the process: what ran before it is written at the exec.
build exec "$PROGS/exec.c"
grind exec.folded -- ./exec
has_line exec.folded "main;work 2002"
