#!/usr/bin/env bash
# Each thread has its own stack, rooted at its start routine.
. "$(dirname "$0")/lib.sh"
build threads "$PROGS/threads.c" -lpthread
cd "$TEST_TMP"
grind th.folded -- ./threads
has_line th.folded "threads;worker_a;work 2002"
has_line th.folded "threads;worker_b;work 4002"
has_line th.folded "threads;main;work 6002"
no_match th.folded 'main;.*worker|worker_a;.*worker_b|\[unknown\];.*worker'
# A thread's own clean-up in start_thread (TLS destructors, freeres) is below its start
# routine: every stack starts at main, a start routine or "(below main)".
others=$(grep -vE '^threads;(main|worker_a|worker_b|\(below main\))[; ]' th.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks rooted elsewhere"; }
