#!/usr/bin/env bash
# longjmp and siglongjmp from three calls deep: every skipped frame is popped (SP rose
# above them), so main's later work is charged to main alone.
. "$(dirname "$0")/lib.sh"
build longjmp "$PROGS/longjmp.c"
cd "$TEST_TMP"
grind lj.folded -- ./longjmp
has_line lj.folded "longjmp;main;f1;f2;f3;work 4004"
has_line lj.folded "longjmp;main;work 10004"
no_match lj.folded '^longjmp;main;f1;work|f3;f1|f3;.*main'
