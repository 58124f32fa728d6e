#!/usr/bin/env bash
# damaged: recordings that were cut or spoiled keep every whole record, as perf keeps
# them, with one warning naming the offset and what was wrong, and exit 0 (exit 1 with
# --strict): a pipe stream cut inside a record or followed by junk, a file cut short, a
# file whose header says data size 0 (perf record killed), an optional feature section
# pointing past the end, AUX data not decoded.  Oracle: perf script on the same bytes
# (pipe mode), or on the file with its header's data size set to the whole records it
# holds (what perf reads of a finished file).  A version 1 file (magic PERFFILE) whose attr size no perf wrote is refused by name.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1

record g.data -g -- "$WL/recurse" 150
perf record -q -N -g -o - -- "$WL/recurse" 150 > p.data 2>record.log || { cat record.log; exit 1; }

# whole_records IN OUT: IN with the header's data size set to the whole records from the
# data offset on, and no feature sections (a finished file holding just those records)
whole_records() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
start = pos = struct.unpack_from('<Q', d, 40)[0]
while pos + 8 <= len(d):
    size = struct.unpack_from('<H', d, pos + 6)[0]
    if size < 8 or pos + size > len(d):
        break
    pos += size
struct.pack_into('<Q', d, 48, pos - start)
struct.pack_into('<4Q', d, 72, 0, 0, 0, 0)
open(sys.argv[2], 'wb').write(bytes(d[:pos]))
PY
}
rd64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
poke64() { # FILE OFFSET VALUE: a little-endian u64 written in place
	python3 -c 'import struct,sys; f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<Q", int(sys.argv[3])))' "$@"
}

# check_damaged NAME FILE ORACLE-FILE WHAT: tephra script FILE == perf script ORACLE-FILE,
# exactly one warning line matching WHAT (an extended regex), exit 0; --strict exits 1
# (script and fold) with one error line.
check_damaged() {
	local name=$1 file=$2 oracle=$3 what=$4
	perf script -i "$oracle" > "$name.perf" 2>/dev/null
	[ -s "$name.perf" ] || { fail "$name: perf script read nothing"; return; }
	"$TEPHRA" script -q "$file" > "$name.tephra" 2> "$name.err" ||
		{ fail "$name: tephra script exited $? on damaged input: $(cat "$name.err")"; return; }
	same_bytes "$name: script" "$name.perf" "$name.tephra"
	[ "$(wc -l < "$name.err")" -eq 1 ] && grep -qE "^warning: $file: .*$what" "$name.err" ||
		fail "$name: expected one warning matching '$what', got: $(cat "$name.err")"
	"$TEPHRA" fold -q "$file" > "$name.fold" 2> "$name.fold.err" ||
		fail "$name: tephra fold exited $? on damaged input"
	[ -s "$name.fold" ] || fail "$name: tephra fold folded nothing"
	for cmd in script fold; do
		"$TEPHRA" "$cmd" -q --strict "$file" > /dev/null 2> "$name.strict.err"
		rc=$?
		[ $rc -eq 1 ] && [ "$(wc -l < "$name.strict.err")" -eq 1 ] &&
			grep -q "^tephra $cmd: $file: offset 0x" "$name.strict.err" ||
			fail "$name: $cmd --strict: expected exit 1 and one error, got $rc: $(cat "$name.strict.err")"
	done
}

# pipe mode: cut inside a record (just after a record header, and mid-way), junk after
plen=$(stat -c %s p.data)
head -c $((plen - 5)) p.data > pcut.data
check_damaged pipe-cut pcut.data pcut.data "offset 0x[0-9a-f]+: record .*runs past the end of the data.*records before it are kept"
head -c $((plen * 2 / 3)) p.data > pcut2.data
check_damaged pipe-cut-mid pcut2.data pcut2.data "offset 0x[0-9a-f]+: .*runs past the end of the data.*records before it are kept"
# the same cut stream read from a pipe (streamed, not mapped)
"$TEPHRA" script -q - < pcut2.data > pipe-stdin.tephra 2> pipe-stdin.err ||
	fail "pipe-cut from stdin: exit $?: $(cat pipe-stdin.err)"
same_bytes "pipe-cut from stdin: script" pipe-cut-mid.perf pipe-stdin.tephra
grep -qE "^warning: <stdin>: offset 0x[0-9a-f]+: .*records before it are kept" pipe-stdin.err ||
	fail "pipe-cut from stdin: expected the warning, got: $(cat pipe-stdin.err)"
{ cat p.data; printf 'this is not a perf record, just junk after the last one\n'; } > pjunk.data
check_damaged pipe-junk pjunk.data pjunk.data "offset 0x$(printf '%x' "$plen"): .*records before it are kept"

# file mode cut short (inside the data section), and a killed perf record's header
data_off=$(rd64 g.data 40)
data_size=$(rd64 g.data 48)
# Both places a cut can fall, made on purpose (a cut at 3/5 of the data fell on a record
# boundary in one run and inside a record in others): at a record boundary, and 12 bytes
# after one (records are 8-byte multiples of at least 8 bytes, so never a boundary).
head -c $((data_off + data_size * 3 / 5)) g.data > probe.data
whole_records probe.data probe.oracle
boundary=$(stat -c %s probe.oracle)
head -c "$boundary" g.data > fcutb.data
whole_records fcutb.data fcutb.oracle
check_damaged file-cut-boundary fcutb.data fcutb.oracle "offset 0x$(printf '%x' "$boundary"): the file is cut short at a record boundary.*records before it are kept"
head -c $((boundary + 12)) g.data > fcut.data
whole_records fcut.data fcut.oracle
check_damaged file-cut fcut.data fcut.oracle "offset 0x$(printf '%x' "$boundary"): .*the file is cut short"
head -c $((data_off + data_size - 3)) g.data > killed.data
poke64 killed.data 48 0
poke64 killed.data 72 0; poke64 killed.data 80 0; poke64 killed.data 88 0; poke64 killed.data 96 0
whole_records killed.data killed.oracle
check_damaged killed killed.data killed.oracle "perf record did not finish"

# an optional feature section past the end: a warning, the samples as perf prints them
cp g.data feat.data
feat_off=$((data_off + data_size))
poke64 feat.data $((feat_off + 16)) $(( $(stat -c %s g.data) + 4096 ))  # the second section
perf script -i g.data > feat.perf 2>/dev/null
"$TEPHRA" script -q feat.data > feat.tephra 2> feat.err || fail "feature past the end: tephra script failed: $(cat feat.err)"
same_bytes "feature past the end: script" feat.perf feat.tephra
grep -q "^warning: feat.data: offset 0x.*: feature section .* runs past the end of the file: ignored" feat.err ||
	fail "feature past the end: no warning: $(cat feat.err)"

# AUX area data (a hardware trace's AUXTRACE record and its 4096-byte payload, appended
# to the pipe stream; no PMU here records intel_pt): skipped with a warning saying how
# many bytes, the samples as perf prints them without it (perf 6.1 itself stops at an
# AUXTRACE record that no AUXTRACE_INFO announced)
python3 - p.data aux.data <<'PY'
import struct, sys
payload = bytes(range(256)) * 16
rec = struct.pack('<IHHQQQIIII', 71, 0, 48, len(payload), 0, 0, 0, 0, 0, 0)
open(sys.argv[2], 'wb').write(open(sys.argv[1], 'rb').read() + rec + payload)
PY
perf script -i p.data > aux.perf 2>/dev/null
"$TEPHRA" script -q aux.data > aux.tephra 2> aux.err || fail "aux: tephra script failed: $(cat aux.err)"
same_bytes "aux: script" aux.perf aux.tephra
[ "$(wc -l < aux.err)" -eq 1 ] && grep -q "^warning: aux.data: 4096 bytes of AUX area data .* not decoded; \`perf script --itrace\` can synthesize samples" aux.err ||
	fail "aux: expected one warning naming 4096 AUX bytes, got: $(cat aux.err)"

# perf.data version 1
{ printf 'PERFFILE'; head -c 200 /dev/zero; } > v1.data
"$TEPHRA" script v1.data > /dev/null 2> v1.err && fail "version 1: exit 0"
grep -q "perf.data version 1 (magic PERFFILE) with attr size 0, not a layout perf reads" v1.err || fail "version 1: $(cat v1.err)"

[ "$failures" -eq 0 ]
