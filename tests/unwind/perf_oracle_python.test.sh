#!/usr/bin/env bash
# Oracle on a real program: the python3 interpreter (libpython, libc, C extension
# modules loaded with dlopen while it runs, deep interpreter stacks) recorded with
# `perf record --call-graph dwarf`, compared sample by sample with `perf script` as in
# perf_oracle (tests/unwind/lib.sh).  The interpreter binary is recorded directly:
# through a wrapper script that execs it (pyenv shims, /usr/bin/env) perf 6.1's own
# unwinding loses frames after the exec, and perf would be the wrong oracle.  The
# workload runs for 0.4 s of its own CPU time, not of wall time: on a busy machine it
# would otherwise get a fraction of the samples, and of the allowance for perf's
# errors (1% of the samples, tests/unwind/lib.sh).
set -u
. "$TOP/tests/unwind/lib.sh"
unwind_setup dump python3
python=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))') || exit 1
unwind_record -F 999 "$python" -c '
import json, time
t = time.process_time()
while time.process_time() - t < 0.4:
    json.loads(json.dumps([{"a": i, "b": str(i)} for i in range(2000)]))
'
# A failure is kept (keep_recording): one sample of 444 once ended in perf's bogus frame
# 0 with our walk doing none of what the comparator accepts there, cause unknown; the
# next occurrence must come with its perf.data.
compare_with_perf "$work/perf.data" "$work" || { keep_recording "$work" perf_oracle_python; exit 1; }
