#!/usr/bin/env bash
# A signal handler that tail-calls: its frame ends at its (tail callee's) return into
# the signal trampoline, with --tail-calls=replace and =nest alike, and the
# trampoline is charged to the handler's top frame until rt_sigreturn.  Counts worked
# out by hand in progs/sigtail.c.  Linked with -z now: the lazy resolver would charge
# the first call of each library function to main in nest mode (a separate matter).
. "$(dirname "$0")/lib.sh"
build sigtail "$PROGS/sigtail.c" -Wl,-z,now
cd "$TEST_TMP"
grind rep.folded -- ./sigtail
grep -qE '^sigtail;main;raise;.*\[signal 10\];work 4008$' rep.folded ||
	{ grep signal rep.folded; fail "replace: work 4008 not under main;raise;...;[signal 10]"; }
grep -qE '^sigtail;main;raise;.*\[signal 10\];handler 4$' rep.folded ||
	{ grep signal rep.folded; fail "replace: handler 4 missing"; }
has_line rep.folded "sigtail;main;work 10004"
no_match rep.folded '\[signal 10\] [0-9]+$|signal 10\].*(main|\[libc)'

grind nest.folded --tail-calls=nest -- ./sigtail
grep -qE '^sigtail;main;raise;.*\[signal 10\];handler;work 4008$' nest.folded ||
	{ grep signal nest.folded; fail "nest: work 4008 not under ...;[signal 10];handler"; }
grep -qE '^sigtail;main;raise;.*\[signal 10\];handler 4$' nest.folded ||
	{ grep signal nest.folded; fail "nest: handler 4 missing"; }
has_line nest.folded "sigtail;main;work 10004"
no_match nest.folded '\[signal 10\] [0-9]+$|signal 10\].*(main|\[libc)'
