#!/usr/bin/env bash
# Plain calls: exact leaf counts, no PLT or resolver frames, deterministic output, and
# the folded total equals lackey's count of guest instructions (same environment).
. "$(dirname "$0")/lib.sh"
build calls "$PROGS/calls.c"
cd "$TEST_TMP"
grind calls.folded -- ./calls
has_line calls.folded "main;a;work 2002"
has_line calls.folded "main;b;work 4002"
has_line calls.folded "main;b;a;work 2002"
no_match calls.folded '\[plt\]|_dl_runtime_resolve|_dl_fixup|\?\?\?'
grind calls2.folded -- ./calls
cmp calls.folded calls2.folded || fail "two runs differ"
# One "main" per stack that has one, always first.
no_match calls.folded '.;main(;| )'
# Every stack starts at main or at "(below main)" (start-up, exit handlers).
others=$(grep -vE '^(main|\(below main\))[; ]' calls.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks rooted elsewhere"; }
# --obj-prefix names frames object:function; --show-below-main keeps the start code.
grind obj.folded --obj-prefix -- ./calls
has_line obj.folded "calls:main;calls:b;calls:a;calls:work 2002"
grind below.folded --show-below-main -- ./calls
grep -qE '^_start;__libc_start_main;__libc_start_call_main;main;b;a;work 2002$' below.folded ||
	{ grep 'work 2002' below.folded; fail "no full start chain with --show-below-main"; }
no_match below.folded '\(below main\)'
