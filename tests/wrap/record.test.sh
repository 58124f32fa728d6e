#!/usr/bin/env bash
# wrap record: `tephra record` runs the program transparently.
#  - stdout is the program's: `xz -c f` under `record -q` writes the same bytes as alone;
#  - its exit status is the program's: 3, and 139 (128 + SIGSEGV) as the shell sees the
#    program alone;
#  - Ctrl-C: SIGINT to the whole process group (kill -INT -- -PGID, as a terminal sends
#    it; and a real terminal's ^C, tests/wrap/ctrl_c.py), once the workload is running:
#    tephra waits for perf to finish the file, which perf's own tools then read whole
#    (perf script's samples = tephra stat's count), draws a whole SVG, says it was
#    interrupted and exits 130, as the program alone would;
#  - SIGTERM to tephra alone is passed on to perf, which ends the workload and writes a
#    whole file; tephra draws nothing and dies of SIGTERM.
. "$TOP/tests/wrap/lib.sh"
command -v perf >/dev/null || skip "perf is not installed"
perf record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "perf record is not permitted here"
trap 'kill -KILL -- -${BG:-0} 2>/dev/null' EXIT

# stdout
if command -v xz >/dev/null; then
	head -c 300000 /dev/urandom | base64 >f
	xz -c f >alone.xz || fail "xz alone"
	"$TEPHRA" record -q -d xz.data -o xz.svg -- xz -c f >wrapped.xz 2>xz.err || fail "record xz: $(tail -n 2 xz.err)"
	cmp alone.xz wrapped.xz || fail "record -q: stdout differs from xz -c f alone"
	grep -q 'flame graph: xz.svg' xz.err || fail "record: its own lines not on stderr: $(cat xz.err)"
else
	echo "xz not installed: stdout case not run"
fi

# exit status
for p in three segv; do
	want=$(status "./$p")
	got=$(status "$TEPHRA" record -d "$p.data" -o "$p.svg" -- "./$p")
	echo "$p: alone $want, under record $got"
	[ "$got" = "$want" ] || fail "record -- ./$p: exit status $got, the program's is $want"
done
[ "$(status ./three)" = 3 ] && [ "$(status ./segv)" = 139 ] || fail "premise: three 3, segv 139"

# a program that cannot run: the shell's status for it (127 not found, 126 not
# executable), said before perf runs, so that the user's perf.data is not moved to
# perf.data.old (overwriting the older one) and replaced by perf's empty file
perf record -q -e cpu-clock -o perf.data -- ./three >/dev/null 2>&1
printf 'older\n' >perf.data.old
cp perf.data kept.data
printf 'no x bit\n' >notexec
for p in no-such-program-xyz ./no-such-file notexec ./notexec; do
	want=$(status sh -c '"$0"' "$p")
	got=$(status "$TEPHRA" record -d perf.data -o nx.svg -- "$p")
	[ "$got" = "$want" ] || fail "record -- $p: exit status $got, the shell's is $want"
	cmp -s perf.data kept.data || fail "record -- $p: perf.data was replaced"
	[ "$(cat perf.data.old)" = older ] || fail "record -- $p: perf.data.old was replaced"
	[ -e nx.svg ] && fail "record -- $p: a graph was drawn"
done
[ "$(status sh -c no-such-program-xyz)" = 127 ] && [ "$(status sh -c ./notexec)" = 126 ] ||
	fail "premise: the shell's 127 and 126"
"$TEPHRA" record -d perf.data -o nx.svg -- no-such-program-xyz 2>nx.err
grep -qx 'tephra record: no-such-program-xyz: command not found' nx.err ||
	fail "record -- no-such-program-xyz: not said: $(cat nx.err)"
# complete: perf.data DATA read whole by perf (its samples = tephra stat's), SVG SVG whole
complete() {
	local data=$1 svg=$2 what=$3 n_perf n_stat
	n_perf=$(perf script -i "$data" -F tid 2>"$what.perf.err" | wc -l)
	n_stat=$("$TEPHRA" stat "$data" 2>/dev/null | awk '$1 == "PERF_RECORD_SAMPLE" { print $2 }')
	echo "$what: perf script $n_perf samples, tephra stat $n_stat"
	[ "$n_perf" -gt 0 ] && [ "$n_perf" = "$n_stat" ] || fail "$what: perf script read $n_perf samples, tephra stat $n_stat"
	grep -qi 'data size\|properly terminated' "$what.perf.err" && fail "$what: perf: $(cat "$what.perf.err")"
	if [ -n "$svg" ]; then
		svg_whole "$svg" || fail "$what: $svg is not a whole SVG"
	fi
}

# Ctrl-C as kill -INT to the process group
in_own_group ready "$TEPHRA" record -d int.data -o int.svg -- ./spin ready || fail "record ended before running"
kill -INT -- -"$BG"
wait "$BG"; rc=$?
[ "$rc" = 130 ] || fail "SIGINT to the group: exit status $rc, want 130 (the program's)"
complete int.data int.svg "SIGINT to the group"
grep -q 'interrupted' bg.err || fail "SIGINT to the group: not said: $(cat bg.err)"

# a terminal's Ctrl-C
got=$(python3 "$TOP/tests/wrap/ctrl_c.py" ready 1 tty.log -- "$TEPHRA" record -d tty.data -o tty.svg -- ./spin ready)
[ "$got" = "exit 130" ] || fail "^C on a terminal: $got, want exit 130: $(cat tty.log)"
complete tty.data tty.svg "^C on a terminal"

# SIGTERM to tephra alone
in_own_group ready "$TEPHRA" record -d term.data -o term.svg -- ./spin ready || fail "record ended before running"
kill -TERM "$BG"
wait "$BG"; rc=$?
[ "$rc" = 143 ] || fail "SIGTERM: exit status $rc, want 143 (died of SIGTERM)"
complete term.data "" "SIGTERM"
[ -e term.svg ] && fail "SIGTERM: a graph was drawn"
grep -q 'stopped by' bg.err || fail "SIGTERM: not said: $(cat bg.err)"
exit $((failures > 0))
