#!/usr/bin/env bash
# `tephra record` whose perf is killed (SIGKILL, once the workload certainly runs:
# tests/wrap/spin.c says "running"): tephra says perf was killed by signal 9 (before:
# "perf record exited with 137", as if perf had chosen that status), exits non-zero,
# and nothing that was there is lost: perf moved the previous recording to
# DATA.old byte for byte (perf's own rule), the previous graph is either left as it
# was or replaced by a whole SVG of what perf wrote, and no directory of ours is left.
. "$(dirname "$0")/lib.sh"
perf record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "perf record is not permitted here"
cc -O1 -o spin "$TOP/tests/wrap/spin.c" || die "cannot build spin"
trap 'kill -KILL -- -${BG:-0} 2>/dev/null' EXIT
cp probe.data rec.data
old_data=$(sha256sum <rec.data)
echo "precious graph" >rec.svg
rm -f ready
set -m
"$TEPHRA" record -d rec.data -o rec.svg -- ./spin ready >bg.out 2>bg.err </dev/null &
BG=$!
set +m
until grep -qx running ready 2>/dev/null; do
	kill -0 "$BG" 2>/dev/null || die "record ended before the workload ran: $(cat bg.err)"
	sleep 0.05
done
read -r perf_pid perf_comm < <(ps -o pid=,comm= --ppid "$BG")
[ "$perf_comm" = perf ] || die "premise: tephra's child is $perf_comm, not perf"
kill -KILL "$perf_pid"
wait "$BG"; rc=$?
kill -KILL -- -"$BG" 2>/dev/null # the workload, which perf could not end
echo "record with perf killed: exit $rc"
[ $rc != 0 ] || fail "exit 0 with perf killed"
grep -q '^tephra record: perf record was killed by signal 9 (Killed)' bg.err ||
	fail "not said that perf was killed: $(cat bg.err)"
[ -f rec.data.old ] && [ "$(sha256sum <rec.data.old)" = "$old_data" ] ||
	fail "the previous recording was not kept as rec.data.old"
if [ "$(cat rec.svg)" != "precious graph" ]; then
	whole rec.svg svg || fail "rec.svg is neither the old graph nor a whole SVG"
fi
left=$(ls -A . tmp | grep -E '\.tephra-|^tephra-')
[ -z "$left" ] || fail "left $left"
exit $((failures > 0))
