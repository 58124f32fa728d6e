#!/usr/bin/env bash
# The folded total equals the number of guest instructions lackey counts.  Lackey runs
# with --vex-guest-chase=no (as our tool does).
#
# Both runs get exactly the same environment, built from nothing (env -i), not the
# caller's: the program's own instruction count depends on its environment to the byte.
# Valgrind copies the argument, environment and auxv strings to the top of the client's
# stack, their total size rounded up to 4 bytes, so that total decides where LD_PRELOAD
# (appended by Valgrind) lands, and ld.so's SSE strcspn over it (handle_preload_list)
# takes 251 or 265 instructions depending on its alignment.  Run from bash, "$TEPHRA"
# and valgrind see different environments ("_" is set to the path of the command run,
# and tephra grind appends VALGRIND_LIB), and whether that moved LD_PRELOAD across a
# step depended on the rest of the caller's environment and on the length of
# $TEST_TMP: the test passed or failed by 14 instructions (docs/grind.md, Counting).
. "$(dirname "$0")/lib.sh"
[ -x /usr/libexec/valgrind/lackey-amd64-linux ] || skip "lackey not installed"
build calls "$PROGS/calls.c"
build signals "$PROGS/signals.c"
build longjmp "$PROGS/longjmp.c"
mkdir -p "$TEST_TMP/lib"
for f in "$TOP"/build/grind/lib/*; do ln -s "$(readlink -f "$f")" "$TEST_TMP/lib/"; done
ln -s /usr/libexec/valgrind/lackey-amd64-linux "$TEST_TMP/lib/"
cd "$TEST_TMP"
# tephra grind sets VALGRIND_LIB to TEPHRA_GRIND_LIB (in place, same value), so both
# programs start with these variables, in this order, and nothing else.
same_env=(env -i PATH="$PATH" LC_ALL=C TEPHRA_GRIND_LIB="$TEST_TMP/lib" VALGRIND_LIB="$TEST_TMP/lib")
# (Not threads.c: how long pthread_join waits depends on scheduling, and lackey's own
# count of it varies by ~100 instructions from run to run.)
for p in calls signals longjmp; do
	"${same_env[@]}" "$TEPHRA" grind --no-svg -o "$TEST_TMP/$p.folded" -- ./$p >"$p.out" 2>"$p.err"
	rc=$?
	[ $rc = 0 ] || { cat "$p.err"; fail "tephra grind ./$p exited $rc"; }
	ours=$(total $p.folded)
	theirs=$("${same_env[@]}" valgrind --tool=lackey --vex-guest-chase=no ./$p 2>&1 >/dev/null |
		sed -n 's/.*guest instrs: *\([0-9,]*\)$/\1/p' | tr -d ,)
	[ -n "$theirs" ] || fail "no lackey count for $p"
	[ "$ours" = "$theirs" ] || fail "$p: folded total $ours, lackey $theirs"
	echo "$p: $ours instructions, as lackey"
done
