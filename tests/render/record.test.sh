#!/usr/bin/env bash
# tephra record on the bundled demo, checked against the machine's perf: the graph's
# total equals the sum of sample periods `perf script` prints for samples with a stack
# (cpu-clock: nanoseconds, which the graph writes as ms or s),
# the demo's functions appear, DWARF call graphs are the default (--fp: frame pointers),
# --perf-arg reaches perf, and the files are where the command says.
set -u
d=$TEST_TMP
fail() { echo "FAIL: $*"; exit 1; }
# NS nanoseconds as the graph writes a cpu-clock total: ms, or s from one second on
as_time() { awk -v ns="$1" 'BEGIN { if (ns >= 1e9) printf "%.2f s", ns / 1e9; else printf "%.2f ms", ns / 1e6 }'; }
# the time the graph FILE gives the demo's root frame
demo_time() { grep -o '<title>demo ([0-9.]* m\?s, ' "$1" | sed 's/<title>demo (//; s/, $//'; }
# perf_total DATA: the periods perf script prints for the demo's samples in DATA (its
# text and errors kept in DATA.ptxt and DATA.perr, shown by perf_said on a failure)
perf_total() {
	perf script -i "$1" -F comm,period >"$1.ptxt" 2>"$1.perr"
	awk '$1 == "demo" { s += $2 } END { printf "%.0f", s }' "$1.ptxt"
}
perf_said() { echo "perf script -i $1: $(wc -l <"$1.ptxt") lines, first: $(head -n 2 "$1.ptxt" | tr '\n' '|') errors: $(head -c 300 "$1.perr")"; }
. "$TOP/tests/skips.sh"
need_perf_record -e cpu-clock
gcc -O2 -g -fno-omit-frame-pointer -o "$d/demo" "$TOP/demo/demo.c" || fail "cannot build demo"
cd "$d"
"$TEPHRA" record --perf-arg=--no-buildid --folded demo.folded -- ./demo 200 > out 2> err || { cat err; fail "record"; }
grep -q -- "perf record -e cpu-clock -F 999 --call-graph dwarf,16384 -o perf.data --no-buildid -- ./demo 200" err || { cat err; fail "perf command line"; }
grep -qx "perf data:   perf.data" err && grep -qx "flame graph: flame.svg" err || { cat err; fail "where the files went"; }
[ -s flame.svg ] && [ -s perf.data ] && [ -s demo.folded ] || fail "files missing"
# Oracle: perf script's periods, summed over samples of the demo's command.
want=$(perf script -i perf.data -F comm,period 2>/dev/null | awk '$1 == "demo" { s += $2 } END { printf "%.0f", s }')
# (The demo's own root frame: a sample taken before exec is named perf-exec.)
got=$(demo_time flame.svg)
[ -n "$want" ] && [ "$want" -gt 0 ] || fail "perf script saw no samples"
[ "$got" = "$(as_time "$want")" ] || fail "graph total $got, perf script total $want ns"
for f in main parse render compress; do
	grep -q "<title>$f (" flame.svg || fail "no frame for $f"
done
# --weight samples: the number of samples perf script prints for the demo.
want_n=$(perf script -i perf.data -F comm 2>/dev/null | awk '$1 == "demo"' | wc -l)
got_n=$("$TEPHRA" flamegraph --weight samples perf.data | grep -o '<title>demo ([0-9]* samples' | grep -o '[0-9]*')
[ "$got_n" = "$want_n" ] || fail "--weight samples total $got_n, perf script printed $want_n samples"
# The folded file sums to the same total.
sum=$(awk '/^demo[; ]/ { s += $NF } END { printf "%.0f", s }' demo.folded)
[ "$sum" = "$want" ] || fail "folded total $sum"
# Frame pointers, then DWARF asked for by name (the default).
"$TEPHRA" record --fp -o fp.svg -d fp.data -- ./demo 100 > /dev/null 2> err || { cat err; fail "record --fp"; }
grep -q -- "perf record -e cpu-clock -F 999 -g -o fp.data -- ./demo 100" err || { cat err; fail "--fp: not -g"; }
want=$(perf_total fp.data)
got=$(demo_time fp.svg)
[ "$got" = "$(as_time "$want")" ] || { perf_said fp.data; fail "fp graph total $got, perf script total $want ns"; }
"$TEPHRA" record --dwarf -o dwarf.svg -d dwarf.data -- ./demo 100 > /dev/null 2> err || { cat err; fail "record --dwarf"; }
grep -q -- "--call-graph dwarf,16384" err || fail "--dwarf not passed"
want=$(perf_total dwarf.data)
got=$(demo_time dwarf.svg)
[ "$got" = "$(as_time "$want")" ] || { perf_said dwarf.data; fail "dwarf graph total $got, perf script total $want ns"; }
# User frames of the DWARF recording: perf's own unwinding names parse (the demo spends
# half its time there), so the graph must too.
perf script -i dwarf.data -F ip,sym 2>/dev/null | grep -qw parse || fail "perf script names no parse in dwarf.data"
grep -q '<title>parse (' dwarf.svg || fail "the DWARF graph has no parse frame, perf script has"
# A caller that ignores SIGCHLD (inherited across exec; the kernel would reap perf itself
# and its exit status be lost): the same graph is drawn.
(trap '' CHLD; exec "$TEPHRA" record -o ign.svg -d ign.data -- ./demo 50) > /dev/null 2> err ||
	{ cat err; fail "record with SIGCHLD ignored"; }
want=$(perf_total ign.data)
got=$(demo_time ign.svg)
[ -n "$got" ] && [ "$got" = "$(as_time "$want")" ] || { perf_said ign.data; fail "SIGCHLD ignored: graph total $got, perf script total $want"; }
# A command that cannot run: a clear failure (exit 127 as the shell's, tephra's own
# words), not a crash; the ASan+UBSan build, which must exist (else the 127 is the shell's).
[ -x "$TEPHRA_ASAN" ] || fail "$TEPHRA_ASAN is not built (make asan)"
"$TEPHRA_ASAN" record -o x.svg -d x.data -- ./no-such-program > /dev/null 2> err
rc=$?
[ $rc = 127 ] || { cat err; fail "missing program: exit $rc, not 127"; }
grep -q '^tephra record: ' err || { cat err; fail "missing program: no 'tephra record:' error"; }
! grep -q 'Sanitizer\|runtime error' err || fail "sanitizer report"
echo ok
