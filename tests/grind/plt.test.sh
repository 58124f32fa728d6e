#!/usr/bin/env bash
# PLT stubs and the dynamic linker's lazy resolver are never frames: their instructions
# go to the caller.  --show-plt keeps them, which shows the program did resolve lazily
# (so the first check is not vacuous) and that hiding moves no instruction.
. "$(dirname "$0")/lib.sh"
build longjmp "$PROGS/longjmp.c"
cd "$TEST_TMP"
unset LD_BIND_NOW
grind shown.folded --show-plt -- ./longjmp
grep -q '\[plt\]' shown.folded || skip "no PLT stub ran (binding not lazy here)"
grep -q '_dl_runtime_resolve' shown.folded || skip "no lazy resolution here"
grind hidden.folded -- ./longjmp
no_match hidden.folded '\[plt\]|_dl_runtime_resolve|_dl_fixup'
[ "$(total shown.folded)" = "$(total hidden.folded)" ] || fail "hiding changed the total"
has_line hidden.folded "longjmp;main;f1;f2;f3;work 4004"
