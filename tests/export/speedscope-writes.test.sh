#!/usr/bin/env bash
# tephra export -f speedscope hands its samples to the kernel in large writes: the
# samples and weights (most of the file) are gathered a megabyte at a time, not written
# through stdio's 4 KB buffer (a 50 MB file took 12,357 write(2) calls, then 116; docs/
# export.md, "Speed and memory").  Counted exactly, not timed: the kernel's count of the
# process's write calls (/proc/PID/io syscw, read while it is a zombie) for a recording of
# a few seconds, whose file is over 100 KB, must stay below 8 + one per 256 KB.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
[ -r /proc/self/io ] || skip "no /proc/PID/io here (task I/O accounting off)"

record "$TEST_TMP/r.data" -e cpu-clock -F 4000 -g -- "$WL/recurse" 2500
writes=$(python3 - "$TEPHRA" export -f speedscope -o "$TEST_TMP/r.json" "$TEST_TMP/r.data" <<'PY'
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)   # a zombie: its counters stay
io = dict(l.split(":", 1) for l in open("/proc/%d/io" % p.pid).read().splitlines() if ":" in l)
rc = p.wait()
print(io["syscw"].strip() if rc == 0 else "failed:%d" % rc)
PY
)
case $writes in
[0-9]*) ;;
*) fail "export failed ($writes)"; finish ;;
esac
size=$(wc -c <"$TEST_TMP/r.json")
[ "$size" -gt 100000 ] || fail "the file is $size bytes: too small to tell"
limit=$((8 + size / 262144))
[ "$writes" -le "$limit" ] && echo "ok: $size bytes in $writes write calls (at most $limit)" ||
	fail "$size bytes in $writes write calls, more than $limit"
finish
