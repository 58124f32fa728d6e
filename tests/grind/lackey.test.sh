#!/usr/bin/env bash
# The folded total equals the number of guest instructions lackey counts.  Lackey runs
# with --vex-guest-chase=no (as our tool does) and both run with the same environment
# (the same VALGRIND_LIB string), so the dynamic linker does the same work.
. "$(dirname "$0")/lib.sh"
[ -x /usr/libexec/valgrind/lackey-amd64-linux ] || skip "lackey not installed"
build calls "$PROGS/calls.c"
build signals "$PROGS/signals.c"
build longjmp "$PROGS/longjmp.c"
mkdir -p "$TEST_TMP/lib"
for f in "$TOP"/build/grind/lib/*; do ln -s "$(readlink -f "$f")" "$TEST_TMP/lib/"; done
ln -s /usr/libexec/valgrind/lackey-amd64-linux "$TEST_TMP/lib/"
export TEPHRA_GRIND_LIB=$TEST_TMP/lib
cd "$TEST_TMP"
# (Not threads.c: how long pthread_join waits depends on scheduling, and lackey's own
# count of it varies by ~100 instructions from run to run.)
for p in calls signals longjmp; do
	grind $p.folded -- ./$p
	ours=$(total $p.folded)
	theirs=$(VALGRIND_LIB=$TEST_TMP/lib valgrind --tool=lackey --vex-guest-chase=no ./$p 2>&1 >/dev/null |
		sed -n 's/.*guest instrs: *\([0-9,]*\)$/\1/p' | tr -d ,)
	[ -n "$theirs" ] || fail "no lackey count for $p"
	[ "$ours" = "$theirs" ] || fail "$p: folded total $ours, lackey $theirs"
	echo "$p: $ours instructions, as lackey"
done
