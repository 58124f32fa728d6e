#!/usr/bin/env bash
# Crafted perf.data files (tests/hostile/mkperf.py; docs/hostile.md, "Bombs"):
#  - 32 k attrs in the header: perf 6.1 reads them in a fraction of a second; tephra
#    re-sorted the id map per attr (over 60 s).  Must finish within 10 s of CPU under
#    ASan and print what perf script prints;
#  - a COMPRESSED record inflating to 64 MiB where the recording's mmap size is 516 KiB:
#    perf keeps the first 516 KiB and drops the rest; tephra script must print the same
#    samples, with a warning;
#  - 1 GiB behind 90 KB of zstd: within 1 GB of address space (plain build; before,
#    2.3 GB and out of memory) and within 20 s of CPU under ASan;
#  - 2048 records of 512 KiB each with no FINISHED_ROUND: within 1 GB (plain build).
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
command -v perf >/dev/null || skip "perf is not installed"
command -v zstd >/dev/null || skip "zstd is not installed"
G=$TOP/tests/hostile/mkperf.py

# expect_tight CPU-SECONDS WANT CMD...: expect, with a tighter CPU budget
expect_tight() {
	local secs=$1 want=$2; shift 2
	ncases=$((ncases + 1))
	"$TOP/tests/bounded" "$secs" "$@" >out.txt 2>err.txt
	local rc=$?
	[ "$rc" = 124 ] && fail "more than $secs s of CPU: $*"
	grep -q 'ERROR: AddressSanitizer\|runtime error:' err.txt && { head -n 20 err.txt; fail "sanitizer report: $*"; }
	[ "$rc" = "$want" ] || { head -n 5 err.txt; fail "exit $rc, want $want: $*"; }
	return 0
}

python3 "$G" attrs 32768 attrs.data || fail "mkperf.py attrs failed"
timeout 120 perf script -i attrs.data > attrs.perf 2>/dev/null || fail "perf script attrs.data failed"
[ "$(wc -l < attrs.perf)" = 3 ] || fail "perf script prints $(wc -l < attrs.perf) samples of attrs.data, not 3"
expect_tight 10 0 "$T" script -i attrs.data
cmp -s attrs.perf out.txt || { diff attrs.perf out.txt | head; fail "script attrs.data != perf script"; }
expect_tight 10 0 "$T" stat attrs.data

python3 "$G" bomb 64 bomb64.data || fail "mkperf.py bomb failed"
timeout 120 perf script -i bomb64.data > bomb64.perf 2>bomb64.perf.err
grep -q "Destination buffer is too small" bomb64.perf.err ||
	fail "perf no longer cuts the record at its mmap size: $(head -c 300 bomb64.perf.err)"
expect 0 "" "$T" script -i bomb64.data
cmp -s bomb64.perf out.txt || { diff bomb64.perf out.txt | head -n 3; fail "script bomb64.data != perf script"; }
grep -q "bomb64.data: offset 0x[0-9a-f]*: PERF_RECORD_COMPRESSED inflates past 528384 bytes" err.txt ||
	fail "no warning for the cut record"

python3 "$G" bomb 1024 bomb1g.data || fail "mkperf.py bomb failed"
# stat is strict: the next record continues a zstd frame that was cut, an error (perf
# stops there too); the others keep what was read, with warnings
for cmd in fold stat "script -i" report "export -f pprof -o b.pb"; do
	want=0; [ "$cmd" = stat ] && want=1
	ncases=$((ncases + 1))
	# shellcheck disable=SC2086
	( ulimit -v 1000000; exec "$TOP/tests/bounded" 20 "$TEPHRA" $cmd bomb1g.data ) > out.txt 2>err.txt
	rc=$?
	[ "$rc" = "$want" ] || { head -n 3 err.txt; fail "$cmd bomb1g.data: exit $rc within 1 GB of address space"; }
	# shellcheck disable=SC2086
	expect "$want" "bomb1g.data: offset 0x" "$T" $cmd bomb1g.data
done
# 2048 COMPRESSED records of 512 KiB each (under the mmap size) and no FINISHED_ROUND:
# 1 GiB queued at once before (2.3 GB); a round is closed early past 128 MiB, every
# sample kept (2048 x 10922 of them, by construction)
python3 "$G" rounds 2048 rounds.data || fail "mkperf.py rounds failed"
ncases=$((ncases + 1))
( ulimit -v 1000000; exec "$TOP/tests/bounded" 60 "$TEPHRA" fold rounds.data ) > out.txt 2>err.txt ||
	{ head -n 3 err.txt; fail "fold rounds.data: exit $? within 1 GB of address space"; }
[ "$(cat out.txt)" = "rounds;[unknown] $((2048 * 10922))" ] || fail "fold rounds.data: $(head -c 200 out.txt)"
grep -q "rounds.data: offset 0x[0-9a-f]*: more than 128 MiB of decompressed records wait" err.txt ||
	fail "no warning for the long round"
echo "ok: $ncases cases"
