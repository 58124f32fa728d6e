#!/usr/bin/env bash
# Plain calls: exact leaf counts, no PLT or resolver frames, deterministic output, and
# the folded total equals lackey's count of guest instructions (same environment).
. "$(dirname "$0")/lib.sh"
build calls "$PROGS/calls.c"
cd "$TEST_TMP"
grind calls.folded -- ./calls
has_line calls.folded "calls;main;a;work 2002"
has_line calls.folded "calls;main;b;work 4002"
has_line calls.folded "calls;main;b;a;work 2002"
no_match calls.folded '\[plt\]|_dl_runtime_resolve|_dl_fixup|\?\?\?'
grind calls2.folded -- ./calls
cmp calls.folded calls2.folded || fail "two runs differ"
# One "main" per stack that has one, always right after the process's root frame.
no_match calls.folded '^[^;]*;.*;main(;| )'
# Every stack starts with the process's root "calls" (its comm), then main or
# "(below main)" (start-up, exit handlers).
others=$(grep -vE '^calls;(main|\(below main\))[; ]' calls.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks rooted elsewhere"; }
# --obj-prefix names frames object:function; --show-below-main keeps the start code.
grind obj.folded --obj-prefix -- ./calls
has_line obj.folded "calls;calls:main;calls:b;calls:a;calls:work 2002"
grind below.folded --show-below-main -- ./calls
grep -qE '^calls;_start;__libc_start_main;__libc_start_call_main;main;b;a;work 2002$' below.folded ||
	{ grep 'work 2002' below.folded; fail "no full start chain with --show-below-main"; }
no_match below.folded '\(below main\)'
# The root frame does not depend on how many processes ran: "comm-PID" with --pid, and
# --no-children keeps the old format, the stacks as the tool wrote them (no root).
grind pid.folded --pid -- ./calls
grep -qxE 'calls-[0-9]+;main;b;a;work 2002' pid.folded || { head pid.folded; fail "no calls-PID root with --pid"; }
grind nc.folded --no-children -- ./calls
has_line nc.folded "main;b;a;work 2002"
no_match nc.folded '^calls;'
