#!/usr/bin/env bash
# --tail-calls=nest keeps what the lazy resolver tail-calls: a program that calls glibc's
# qsort once (progs/qsortcall.c: through the PLT, lazily bound, so _dl_runtime_resolve
# tail-calls qsort, which tail-calls qsort_r) showed every instruction below main on main
# itself ("qsortcall;main 8524412", no qsort_r frame), the resolver being hidden with
# everything under it.  Now nest mode shows the frames replace mode shows plus the
# tail-callers (qsort above qsort_r), and the inclusive costs of qsort and qsort_r equal
# callgrind's (which nests tail calls) and, for qsort_r, replace mode's.
. "$(dirname "$0")/lib.sh"
command -v callgrind_annotate >/dev/null || skip "callgrind_annotate is not installed"
build qsortcall "$PROGS/qsortcall.c"
cd "$TEST_TMP"
# lazy binding whatever the environment says
unset LD_BIND_NOW
grind replace.folded -- ./qsortcall
grind nest.folded --tail-calls=nest -- ./qsortcall
valgrind --tool=callgrind --callgrind-out-file=cg.out ./qsortcall >/dev/null 2>&1 || fail "callgrind failed"
[ "$(total replace.folded)" = "$(total nest.folded)" ] || fail "totals differ between modes"
# the premise: glibc's qsort tail-calls qsort_r (callgrind lists qsort_r, and replace mode
# puts qsort_r where qsort was: main;qsort_r)
grep -q '^qsortcall;main;qsort_r;msort_with_tmp' replace.folded || fail "premise: replace mode has no main;qsort_r;msort_with_tmp"
grep -q '^qsortcall;main;qsort;qsort_r;msort_with_tmp' nest.folded ||
	{ grep '^qsortcall;main[ ;]' nest.folded | sort -t' ' -k2 -nr | head -3; fail "nest mode has no main;qsort;qsort_r;msort_with_tmp"; }
for fn in qsort qsort_r; do
	cg=$(cg_cost cg.out "$fn" --inclusive=yes)
	[ -n "$cg" ] || fail "no callgrind cost for $fn"
	got=$(frame_incl nest.folded "$fn")
	[ "$got" = "$cg" ] || fail "nest: $fn's inclusive cost $got, callgrind's $cg"
	echo "ok: $fn inclusive $got, as callgrind"
done
[ "$(frame_incl replace.folded qsort_r)" = "$(frame_incl nest.folded qsort_r)" ] ||
	fail "qsort_r's inclusive cost: replace $(frame_incl replace.folded qsort_r), nest $(frame_incl nest.folded qsort_r)"
# every function replace mode shows, nest mode shows too
funcs() { sed -E 's/ [0-9]+$//' "$1" | tr ';' '\n' | sort -u; }
missing=$(comm -23 <(funcs replace.folded) <(funcs nest.folded))
[ -z "$missing" ] || fail "nest mode lacks frames replace mode has: $(echo $missing)"
echo "ok: nest mode has every frame of replace mode, $(comm -13 <(funcs replace.folded) <(funcs nest.folded) | wc -l) more"
