#!/usr/bin/env bash
# Oracle on stack copies that end exactly where a walk needs them, made on purpose, so
# that what happens by chance under load (a copy ending inside a walk) is checked on
# every run.
#
# The kernel copies the user stack into the sample and writes the requested size and
# the size it managed (dyn_size); dyn_size is smaller when the copy met a page it
# could not read in the interrupt (python3's _PyPathConfig_ComputeSysPath0 allocates
# 64 KiB of stack, and a sample right after has 1264 of 8192 bytes).  perf 6.1 never
# reads the copy's last 8 bytes and ends a walk that needs them, or anything beyond,
# with a bogus frame 0 (docs/unwind.md).  Two samples of tests/unwind/perf_oracle_python
# once broke the oracle's old rule ("perf ends with frame 0, so we say stack cut short"):
# a full copy whose last word held __libc_start_main's return address (we read it and
# reach _start: complete), and the partial copy above (we said "bad memory read").
#
# Here the workload of perf_oracle is recorded, and for each sample whose walk we
# complete, dyn_size is rewritten in place (the record keeps its layout, as when the
# kernel's copy stops early) to end the copy either just after the highest word our
# walk read — its outermost return address: we read it, perf cannot — or just before
# it (both fail there).  Then tests/unwind/lib.sh compares with perf script: every
# such sample must end in perf's frame 0, and we must say "stack partly copied" for
# the second kind and have read the copy's last word, with one frame more than perf,
# for the first.
set -u
. "$TOP/tests/unwind/lib.sh"
unwind_setup dump gcc python3

gcc -O2 -g -fomit-frame-pointer -o "$work/workload" "$TOP/tests/unwind/progs/unwind_workload.c" || exit 1
unwind_record -F 1999 "$work/workload" 4 2
# where each sample's stack copy lies in the file, as perf reads it: "TIME_NS TID
# RECORD_OFFSET USTACK_OFFSET" (the ustack offset is that of its size field)
perf report -D -i "$work/perf.data" 2>/dev/null | awk '
	/^[0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE/ {
		split($6, ids, "/"); t = $1; tid = ids[2]; off = $2; next
	}
	/^\.\.\. ustack: size/ && t != "" { print t, tid + 0, off, $NF; t = "" }' >"$work/records"
"$dump" --stack-use "$work/perf.data" >"$work/use.txt" || exit 1
python3 - "$work/perf.data" "$work/records" "$work/use.txt" "$work/cuts" <<'EOF' || exit 1
import struct, sys
data, records, use, cuts = sys.argv[1:]
where = {}
for line in open(records):
    t, tid, off, uoff = line.split()
    where[(tid, t)] = int(off, 16) + int(uoff, 16)
f = open(data, "r+b")
n = [0, 0]
with open(cuts, "w") as out:
    for line in open(use):
        tid, t, used, size, status = line.split()
        used, size = int(used), int(size)
        if status != "complete" or used < 16:
            continue
        pos = where[(tid, t.replace(".", "").lstrip("0"))]
        f.seek(pos)
        stack_size = struct.unpack("<Q", f.read(8))[0]
        f.seek(pos + 8 + stack_size)
        dyn_size = struct.unpack("<Q", f.read(8))[0]
        assert min(dyn_size, stack_size) == size, (tid, t, dyn_size, stack_size, size)
        kind = (n[0] + n[1]) % 2  # 0: the copy ends after that word, 1: before it
        f.seek(pos + 8 + stack_size)
        f.write(struct.pack("<Q", used - 8 * kind))
        n[kind] += 1
        out.write("%s %s: %s\n" % (tid, t, "after" if kind == 0 else "before"))
print("copies made to end after the outermost return address: %d, before it: %d" % tuple(n))
if min(n) < 10:
    sys.exit("too few complete walks to cut")
EOF
status=0
compare_with_perf "$work/perf.data" "$work" || status=1
# Every cut sample is the case it was made to be: perf ends it with frame 0; we read
# the last word (after) or stop there saying so (before).
awk -v cutfile="$work/cuts" '
	BEGIN { while ((getline l < cutfile) > 0) { split(l, a, " "); kind[a[1] " " a[2]] = a[3] } }
	NR == FNR { ours[$1 " " $2] = $3; next }
	($1 " " $2) in kind {
		key = $1 " " $2; k = kind[key]; seen[k]++
		if ($NF != "ffffffffffffffff([unknown])") { print "sample " key " (" k "): perf does not end with frame 0"; bad++ }
		if (k == "after" && ours[key] !~ /read_the_last_word_of_the_dump/) { print "sample " key ": we did not read the last word (" ours[key] ")"; bad++ }
		if (k == "before" && ours[key] !~ /^stack_partly_copied/) { print "sample " key ": we say " ours[key] ", not stack partly copied"; bad++ }
	}
	END {
		printf "cut samples checked: %d after, %d before, %d wrong\n", seen["after"], seen["before"], bad
		exit bad > 0 || seen["after"] < 10 || seen["before"] < 10
	}' "$work/ours.norm" "$work/perf.norm" || status=1
exit $status
