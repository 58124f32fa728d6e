#!/usr/bin/env bash
# Bad input never crashes, hangs or leaks: the ASan+UBSan build of `tephra stat` on
#  - a real recording cut at record boundaries and inside records (file mode with the
#    header's data size made to match the cut, and as-is; pipe mode),
#  - records whose size field lies (too small, past the end), a callchain count running
#    past its record, a feature section pointing past the end (a warning: optional
#    sections never refuse the samples), attr sizes that lie,
#    corrupt zstd data, a byte-swapped (big-endian) header, garbage, a file from a
#    killed perf record (data size 0: a warning and no records, as perf);
# must exit 1 with exactly one error line "tephra stat: FILE: offset 0xOFF: what" (or, for
# damage that still decodes, exit 0), with no sanitizer report and within the timeout.
set -u
. "$(dirname "$0")/lib.sh"
require_perf
cd "$TEST_TMP" || exit 1
export -f burn
BIN=${TEPHRA_ASAN:-}
[ -x "$BIN" ] || { partial "no ASan build (make asan): the plain build checked instead"; BIN=$TEPHRA; }

perf record -q -g -o g.data -- bash -c burn >/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
perf record -q -z -g -o z.data -- bash -c burn >/dev/null 2>&1 || exit 1
perf record -q -g -o - -- bash -c burn > p.data 2>/dev/null || exit 1

fail=0 runs=0
# run_bad FILE MODE [stdin]: MODE "error" = must fail with one located error line;
# "ok" = must succeed; "any" = either, but cleanly.
run_bad() {
	local f=$1 mode=$2 rc
	runs=$((runs + 1))
	if [ "${3:-}" = stdin ]; then
		"$TOP/tests/bounded" 20 "$BIN" stat - < "$f" > out.txt 2> err.txt; rc=$?
	else
		"$TOP/tests/bounded" 20 "$BIN" stat "$f" > out.txt 2> err.txt; rc=$?
	fi
	if [ $rc -eq 124 ]; then echo "$f: hang (timeout)"; fail=1; return; fi
	if grep -qE 'Sanitizer|runtime error|AddressSanitizer|LeakSanitizer' err.txt; then
		echo "$f: sanitizer report:"; head -20 err.txt; fail=1; return
	fi
	case $mode in
	error)
		if [ $rc -ne 1 ] || [ "$(wc -l < err.txt)" -ne 1 ] ||
		   ! grep -qE "^tephra stat: [^:]+: offset 0x[0-9a-f]+: " err.txt; then
			echo "$f: expected one located error and exit 1, got exit $rc:"; head -5 err.txt; fail=1
		fi;;
	ok)
		if [ $rc -ne 0 ]; then echo "$f: expected success, got exit $rc:"; head -5 err.txt; fail=1; fi;;
	any)
		if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || [ "$(wc -l < err.txt)" -ne 1 ]; }; then
			echo "$f: expected exit 0 or one error line, got exit $rc:"; head -5 err.txt; fail=1
		fi;;
	esac
}
poke() { # file offset hexbytes...: overwrite bytes in place
	local f=$1 off=$2; shift 2
	printf "$(printf '\\x%s' "$@")" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
le64() { # value -> 8 hex bytes, little-endian
	local v=$1 i
	for i in 0 1 2 3 4 5 6 7; do printf '%02x ' $(( (v >> (8 * i)) & 255 )); done
}
rd64() { # file offset -> value
	od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '
}
# record offsets/sizes/types as perf sees them ("0x390@g.data [0x48]: event: 9")
offsets() { perf script -D -i "$1" 2>/dev/null | sed -n 's/^\(0x[0-9a-f]*\)@[^ ]* \[\(0x[0-9a-f]*\)\]: event: \([0-9]*\)$/\1 \2 \3/p'; }

run_bad g.data ok
run_bad z.data ok
run_bad p.data ok stdin

# --- file mode cut at record boundaries and inside records ---
offsets g.data | sort -u > g.recs
data_off=$(rd64 g.data 40)
n=$(wc -l < g.recs); step=$(( n / 25 + 1 ))
awk -v s=$step 'NR % s == 1' g.recs | while read -r off size type; do
	for cut in $((off)) $((off + 4)) $((off + size / 2)); do
		head -c "$cut" g.data > cut.data
		run_bad cut.data error                       # header points past the end
		cp cut.data cutfix.data
		poke cutfix.data 48 $(le64 $((cut - data_off)))  # data section ends at the cut
		poke cutfix.data 72 $(le64 0) $(le64 0) $(le64 0) $(le64 0)  # no feature table
		if [ "$cut" -eq $((off)) ]; then run_bad cutfix.data ok; else run_bad cutfix.data error; fi
	done
	echo "$fail" > fail.status; echo "$runs" > runs.status
done
fail=$(cat fail.status 2>/dev/null || echo 1); runs=$(cat runs.status)

# --- pipe mode cuts: at a boundary the stream is complete, inside a record it is not ---
plen=$(stat -c %s p.data)
for cut in 16 $(( plen / 3 )) $(( plen / 2 + 3 )) $(( plen - 5 )); do
	head -c "$cut" p.data > pcut.data
	run_bad pcut.data any stdin
done
head -c 20 p.data > pcut.data; run_bad pcut.data error stdin
head -c $((plen - 4)) p.data > pcut.data; run_bad pcut.data error stdin

# --- lying sizes ---
read -r s_off s_size s_type < <(awk '$3 == 9' g.recs | head -1)
cp g.data lie.data; poke lie.data $((s_off + 6)) 04 00; run_bad lie.data error       # size 4 < header
cp g.data lie.data; poke lie.data $((s_off + 6)) f8 ff; run_bad lie.data error       # past the end
cp g.data lie.data; poke lie.data $((s_off + 6)) $(printf '%02x 00' $((s_size + 8))); run_bad lie.data any
# callchain count past its record (sample_type IP|TID|TIME|CALLCHAIN|PERIOD: header, ip,
# pid/tid, time, period, then nr at +40)
cp g.data cc.data; poke cc.data $((s_off + 40)) $(le64 268435456); run_bad cc.data error
cp g.data cc.data; poke cc.data $((s_off + 40)) ff ff ff ff ff ff ff ff; run_bad cc.data error
cp g.data cc.data; poke cc.data $((s_off + 40)) $(le64 $(( (s_size - 48) / 8 + 1 ))); run_bad cc.data error
# the first sample's callchain opened by a context marker that is none of perf's
# (0xfffffffffffffe9f, above PERF_CONTEXT_MAX): perf script drops its frames and prints
# the sample with none, and so does the fold, so the first stack the fold names is
# empty; read by report and export (the fold's export path copied its frame ids to a
# buffer not yet made: UBSan's "null pointer passed as argument 1" in perf_fold.c)
# Every sample so treated, not only the one at the lowest offset: perf script prints in
# time order, and across CPUs the first in time need not be the first in the file (a
# fresh root printed an ld.so sample first); with all of them the first is certain.
cp g.data nochain.data
python3 - nochain.data $(awk '$3 == 9 { print $1 }' g.recs) <<'PY'
import struct, sys
# every context marker of each sample's callchain (nr at +40, entries from +48) made
# an unknown one, so that no frame follows a marker perf knows
f = open(sys.argv[1], "r+b")
for o in sys.argv[2:]:
    off = int(o, 0)
    f.seek(off + 40); nr = struct.unpack("<Q", f.read(8))[0]
    for k in range(nr):
        f.seek(off + 48 + 8 * k); v = struct.unpack("<Q", f.read(8))[0]
        if v >= 2**64 - 4095:
            f.seek(off + 48 + 8 * k); f.write(struct.pack("<Q", 0xfffffffffffffe9f))
PY
first=$(perf script -i nochain.data 2>/dev/null | sed -n '2p')
[ -z "$first" ] || { echo "premise: perf script prints a frame for nochain.data's first sample: $first"; fail=1; }
for cmd in "report -n 3" "export -f pprof -o nochain.pb.gz" "export -f speedscope -o -"; do
	runs=$((runs + 1))
	"$TOP/tests/bounded" 20 "$BIN" $cmd nochain.data > out.txt 2> err.txt; rc=$?
	if [ $rc -ne 0 ] || grep -qE 'Sanitizer|runtime error' err.txt; then
		echo "nochain.data: $cmd: exit $rc:"; grep -v '^ ' err.txt | head -5; fail=1
	fi
done
# a feature section past the end of the file: optional, so a warning, not an error
feat=$(( $(rd64 g.data 40) + $(rd64 g.data 48) ))
cp g.data feat.data; poke feat.data $feat $(le64 $(( $(stat -c %s g.data) + 100 ))); run_bad feat.data ok
grep -q 'warning: .*feature section .* runs past the end of the file: ignored' err.txt ||
	{ echo "feat.data: no warning"; fail=1; }
cp g.data feat.data; poke feat.data $((feat + 8)) ff ff ff ff ff ff ff 7f; run_bad feat.data ok
# attr sizes that lie
cp g.data attr.data; poke attr.data 16 $(le64 7); run_bad attr.data error
cp g.data attr.data; poke attr.data 16 $(le64 $(( $(rd64 g.data 32) + 8 ))); run_bad attr.data error
cp g.data attr.data; poke attr.data $(( $(rd64 g.data 24) + 4 )) ff ff 00 00; run_bad attr.data any
# the id list of an attr pointing past the end
cp g.data attr.data; poke attr.data $(( $(rd64 g.data 24) + $(rd64 g.data 16) - 16 )) ff ff ff ff ff ff 00 00
run_bad attr.data error
# corrupt zstd: the first frame's magic, and bytes in the middle of a frame
# perf -D shows decompressed records at the offset of their COMPRESSED container; the
# container is the one whose type in the file is 81.
c_off=; c_size=
for o in $(offsets z.data | awk '{ print $1 }' | sort -u); do
	if [ "$(od -An -tu4 -j $((o)) -N4 z.data | tr -d ' ')" = 81 ]; then
		c_off=$((o)); c_size=$(od -An -tu2 -j $((o + 6)) -N2 z.data | tr -d ' '); break
	fi
done
if [ -n "${c_off:-}" ]; then
	cp z.data zc.data; poke zc.data $((c_off + 8)) 00 00 00 00; run_bad zc.data error
	cp z.data zc.data; poke zc.data $((c_off + c_size / 2)) de ad be ef de ad be ef; run_bad zc.data any
	head -c $((c_off + c_size / 2)) z.data > zcut.data; poke zcut.data 48 $(le64 $((c_off + c_size / 2 - $(rd64 z.data 40))))
	poke zcut.data 72 $(le64 0) $(le64 0) $(le64 0) $(le64 0); run_bad zcut.data error
else
	echo "no COMPRESSED record in z.data"; fail=1
fi
# byte-swapped header, garbage, empty
cp g.data be.data; poke be.data 0 32 45 4c 49 46 52 45 50; run_bad be.data error
grep -q 'endianness' err.txt || { echo "byte-swapped file: no endianness message"; fail=1; }
head -c 4096 /dev/urandom > junk.data; run_bad junk.data error
{ printf 'PERFILE2'; head -c 4096 /dev/urandom; } > junk2.data; run_bad junk2.data error
: > empty.data; run_bad empty.data error
{ head -c 16 p.data; head -c 4096 /dev/urandom; } > junk3.data; run_bad junk3.data any stdin
for i in 1 2 3 4 5 6 7 8; do
	cp g.data rnd.data
	poke rnd.data $(( data_off + (RANDOM * 32768 + RANDOM) % ($(stat -c %s g.data) - data_off - 8) )) \
		$(head -c 8 /dev/urandom | od -An -tx1)
	run_bad rnd.data any
done
# a perf record killed before it finished: data size 0, no feature sections.  perf warns
# and reads nothing; so must tephra (exit 0, a warning, no records).  Killed while its
# workload runs, by construction: the workload says it runs (its pid, through a FIFO; perf
# wrote the header before starting it) and then waits on another FIFO that nobody opens
# until it is killed too.  -t only bounds a broken run; it synchronizes nothing.
mkfifo k.ready k.hold
perf record -q -g -o killed.data -- sh -c 'echo $$ >k.ready; read x <k.hold' >/dev/null 2>&1 &
rec_pid=$!
if read -r -t 300 wl_pid <k.ready; then
	kill -9 "$rec_pid"
	wait "$rec_pid" 2>/dev/null
	kill -9 "$wl_pid"
	[ "$(rd64 killed.data 48)" = 0 ] || { echo "killed.data: data size $(rd64 killed.data 48), not 0"; fail=1; }
	run_bad killed.data ok
	grep -q 'warning: .*data size is 0' err.txt || { echo "killed.data: no warning"; fail=1; }
	n_perf=$(perf script -D -i killed.data 2>/dev/null | grep -c 'PERF_RECORD_')
	n_tephra=$("$BIN" stat --records killed.data 2>/dev/null | wc -l)
	[ "$n_perf" = "$n_tephra" ] || { echo "killed.data: perf shows $n_perf records, tephra $n_tephra"; fail=1; }
else
	kill -9 "$rec_pid" 2>/dev/null
	echo "killed.data: perf record's workload never started"; fail=1
fi
echo "$runs runs"
exit $fail
