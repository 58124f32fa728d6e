#!/usr/bin/env bash
# Oracle: tests/unwind/progs/rbx_cfa_workload.c (x86_64), recorded with `perf record
# --call-graph dwarf`: a leaf whose CFI has no rule for rbx, called from a frame whose
# CFA is rbx + 16 (the shape of ld.so's _dl_fixup called from _dl_runtime_resolve_xsavec,
# where this test's walks used to stop after two frames now and then).  Every sample's
# user frames must be the ones `perf script` prints (tests/unwind/lib.sh: plain and ASan,
# fast path and --libdwfl-only, --module-budget 1); perf (libunwind) keeps rbx in a
# frame without a rule for it, as the psABI says.
set -u
. "$TOP/tests/unwind/lib.sh"
[ "$(uname -m)" = x86_64 ] || { echo "x86_64 only"; exit 77; }
unwind_setup dump gcc

gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/rbx_cfa_workload.c" ||
	exit 1
unwind_record -N -F 1999 "$work/workload" 300
status=0
compare_with_perf "$work/perf.data" "$work" || status=1
# perf's view, the premise: samples in the leaf that perf continues through the
# rbx-based frame into main
nr_deep=$(awk '$4 ~ /^[0-9a-f]+\(.*workload\)$/ && $6 ~ /workload\)$/' "$work/perf.norm" | wc -l)
echo "$nr_deep samples continued by perf from the leaf through rbx_cfa_frame to main"
[ "$nr_deep" -ge 50 ] || { echo "too few samples through the rbx-based frame (nothing tested)"; status=1; }
exit $status
