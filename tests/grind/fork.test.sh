#!/usr/bin/env bash
# fork and exec.  By default every process is followed and the profile has a root frame
# per process (its comm): the parent and its forked child are both "fork", and an exec'd
# program is a root of its own.  With --no-children (the behaviour before children were
# followed) a forked child writes its own file (FILE.PID) with only what it ran after
# the fork, and a program that execs writes its file at the exec.
. "$(dirname "$0")/lib.sh"
build fork "$PROGS/fork.c"
build exec "$PROGS/exec.c"
cd "$TEST_TMP"
# The child's work(1000) and the parent's work(2000), each counted once.
grind fork.folded -- ./fork
has_line fork.folded "fork;main;work 6004"
ls fork.folded.[0-9]* 2>/dev/null && fail "a child file beside the one profile"
grind exec.folded -- ./exec
has_line exec.folded "exec;main;work 2002"
grep -q '^true;' exec.folded || fail "the exec'd /bin/true is not a root"
no_match exec.folded '^main'

grind fork.folded --no-children -- ./fork
has_line fork.folded "main;work 4002"
no_match fork.folded 'work 2002$'
child=$(ls fork.folded.* 2>/dev/null | grep -E '\.[0-9]+$')
[ -n "$child" ] || fail "no child file fork.folded.PID"
has_line "$child" "main;work 2002"
no_match "$child" 'work 4002$'

# exec replaces the process: what ran before it is written at the exec.
grind exec.folded --no-children -- ./exec
has_line exec.folded "main;work 2002"
grep -q 'warning: process [0-9]* ran /bin/true without the tool (--no-children)' exec.folded.err ||
	{ cat exec.folded.err; fail "no warning about the exec'd program"; }
