#!/usr/bin/env bash
# Hostile guest ELF files, QEMU exec logs, pc dumps and raw folded files for
# tephra trace / tephra symbolize, and tephra emu argument errors.  The ELF is built
# byte by byte by mkelf.py (no cross compiler needed) and then corrupted one way per
# case.  Expected: a file that cannot be used is one error naming it (exit 1); an ELF
# that still decodes but whose symbol table is corrupt gives the counts with a warning
# naming the ELF (exit 0).
. "$TOP/tests/hostile/lib.sh"
T=$TEPHRA_ASAN
MKELF="$TOP/tests/hostile/mkelf.py"
python3 "$MKELF" good.elf
python3 - <<'PY'
import random, struct
r = random.Random(4242)
def w(name, data):
    open(name, "wb").write(data if isinstance(data, bytes) else data.encode())
# main: 11000 addi, 11004 jal leaf; leaf: 1100c addi, 11010 ret; back to 11008 j main.
loop = [0x11000, 0x11004, 0x1100c, 0x11010, 0x11008] * 1000
def log(pcs, cpu=lambda i: 0):
    return "".join("Trace %d: 0x7f0000001000 [00000000/%016x/00000000/ff000001] \n" % (cpu(i), p)
                   for i, p in enumerate(pcs))
def dump(pcs):
    return b"".join(struct.pack("<Q", p & 0xffffffffffffffff) for p in pcs)
w("good.log", log(loop))
w("good.pcs", dump(loop))
w("odd7.pcs", dump(loop)[:8 * 100 + 7])           # a truncated last pc
w("odd3.pcs", b"\0\1\2")                           # shorter than one pc
w("random.pcs", bytes(r.getrandbits(8) for _ in range(8 * 50000)))
w("randpc.pcs", dump(r.choice([0x11000, 0x11004, 0x11008, 0x1100c, 0x11010, 0x11002,
                               0x11006, 0, 2**64 - 1, 2**63, r.getrandbits(64)])
                     for _ in range(100000)))
w("calls.pcs", dump([0x11004, 0x1100c] * 100000))  # 100000 calls, never a return
w("rets.pcs", dump([0x11010, 0x11008] * 100000))   # returns with nothing to return to
w("random.log", bytes(r.choice(b"Trace 0123456789abcdef:[]/x \n") for _ in range(300000)))
w("notrace.log", "hello\nworld\n")
w("badtrace.log", log(loop[:10]) + "Trace 0: 0x7f00 [00000000/zz/0/0]\n")
w("badtrace2.log", "Trace x: 0x1 [0/11000/0/0]\n")
w("bigcpu.log", log(loop[:50], lambda i: 2**64 - 1 - (i % 2)) +
    "Trace 99999999999999999999999: 0x7f [0/11000/0/1]\n")
w("manycpu.log", log([0x11000] * 5000, lambda i: i))   # 5000 distinct cpus
w("cpu4096.log", log([0x11000] * 4096, lambda i: i))   # as many as a log may name
w("bigpc.log", log([2**64 - 2, 2**64 - 4, 0, 0x11002, 0x11012]))
w("flags.log", "Trace 0: 0x1 [0/11000/0/ffffffffffffffffffffff]\nTrace 0: 0x1 [0/11004/0/]\n"
    "Trace 0: 0x1 [0/1100c/0\n")
w("nul.log", "Trace 0: 0x1 [0/11000/0/1]\n" + "\0" * 10)
w("longline.log", "x" * (8 << 20) + "\n" + log(loop[:5]))
w("noeol.log", log(loop[:5]).rstrip("\n"))
# Raw folded profiles for symbolize.
w("good.raw", "0x11008;0x1100c 7\n0x11000 3\n")
w("hostile.raw", "0x11008;;0x1100c 7\n;;; 1\n0x 2\n0xffffffffffffffffff 1\n0xFFFFFFFFFFFFFFFF 1\n"
    "[x];0x11002 1000\n")
w("sum.raw", "0x11000 18446744073709551615\n0x11004 1\n")  # the total overflows 64 bits
w("deep.raw", ";".join("0x%x" % (0x11000 + 4 * (i % 5)) for i in range(200000)) + " 1\n")
w("negative.raw", "0x11000 -5\n")
w("overflow.raw", "0x11000 99999999999999999999\n")
w("nul.raw", b"0x11000\0junk 5\n")
w("random.raw", bytes(r.getrandbits(8) for _ in range(20000)))
PY
tr_() { expect "$1" "$2" "$T" trace "${@:3}" -o out.folded; }
tr_ 0 "" --elf good.elf good.log
printf 'main 3000\nmain;leaf 2000\n' | cmp -s - out.folded || { cat out.folded; fail "good.log folded"; }
tr_ 0 "" --elf good.elf good.pcs
printf 'main 3000\nmain;leaf 2000\n' | cmp -s - out.folded || { cat out.folded; fail "good.pcs folded"; }

# Corrupt ELF files that cannot be decoded: one error naming the file.
for m in shoff_zero_num phdr_filesz_huge phdr_offset_beyond phdr_wrap phnum_huge phoff_beyond \
	machine_x86 class_bad; do
	python3 "$MKELF" $m.elf $m
	tr_ 1 "$m.elf" --elf $m.elf good.pcs
	expect 1 "$m.elf" "$T" symbolize --elf $m.elf good.raw
done
# Corrupt symbol tables: the code still decodes; counts kept, a warning names the ELF.
for m in symtab_link symtab_link_self symtab_entsize0 symtab_entsize1 symtab_entsize_huge \
	symtab_size_huge symtab_size_odd symtab_offset strtab_size_huge shnum_huge shoff_beyond \
	sym_name; do
	python3 "$MKELF" $m.elf $m
	tr_ 0 "" --elf $m.elf good.pcs
	grep -q "tephra trace: $m.elf: warning: " err.txt || { cat err.txt; fail "$m: no warning"; }
	[ "$(awk '{ s += $NF } END { print s }' out.folded)" = 5000 ] || fail "$m: counts lost"
	expect 0 "" "$T" symbolize --elf $m.elf good.raw
	grep -q "tephra symbolize: $m.elf: warning: " err.txt || fail "$m: no symbolize warning"
done
# Odd but readable: wrapping symbol ranges, bad section indexes, 50000 overlapping symbols,
# a huge .text size in the section header (the segment is what is read).
for m in sym_shndx sym_wrap sym_many text_size_huge shstrndx_bad; do
	python3 "$MKELF" $m.elf $m
	tr_ 0 "" --elf $m.elf good.pcs
	expect 0 "" "$T" symbolize --elf $m.elf good.raw
done
# Truncations of the good ELF at every 97th byte: never a crash; before the code ends
# the file is refused, naming it.
size=$(stat -c %s good.elf)
for ((n = 0; n < size; n += 97)); do
	head -c $n good.elf > cut.elf
	ncases=$((ncases + 1))
	"$TOP/tests/bounded" 20 "$T" trace --elf cut.elf good.pcs > /dev/null 2> err.txt
	rc=$?
	case $rc in 0|1) ;; *) fail "truncated ELF ($n bytes): exit $rc";; esac
	grep -q 'Sanitizer\|runtime error' err.txt && { cat err.txt; fail "truncated ELF ($n bytes)"; }
	[ $n -lt $((0x1000 + 20)) ] && { [ $rc = 1 ] && grep -q "cut.elf" err.txt ||
		fail "ELF cut to $n bytes (before the end of its code) accepted"; }
done
expect 1 "missing.elf" "$T" trace --elf missing.elf good.pcs
expect 1 "not a" "$T" trace --elf good.log good.pcs
expect 1 "$TEST_TMP" "$T" trace --elf "$TEST_TMP" good.pcs

# Traces.
tr_ 1 "odd7.pcs: offset 0x320: truncated pc" --elf good.elf odd7.pcs
tr_ 1 "odd3.pcs" --elf good.elf --format pcs odd3.pcs
tr_ 0 "" --elf good.elf --format pcs random.pcs      # any 8-byte values are pcs (outside the ELF: counted)
grep -q "instructions outside good.elf" err.txt || fail "random.pcs: no note of unknown code"
# pcs of this ELF in an order it cannot run: each arrival would be taken as a signal,
# with stacks as deep as the trace; refused once 1 arrival in 100 is like that.
tr_ 1 "randpc.pcs: offset 0x10000: 4207 of the first 8192 instructions arrive where" \
	--elf good.elf randpc.pcs
tr_ 1 "calls.pcs: offset 0x10000:" --elf good.elf calls.pcs
tr_ 1 "rets.pcs: offset 0x10000:" --elf good.elf rets.pcs
python3 -c 'import struct, sys
loop = [0x11000, 0x11004, 0x1100c, 0x11010, 0x11008] * 2000
for i in range(0, len(loop), 500): loop[i] = 0x1100c   # 20 odd arrivals in 10000: fine
sys.stdout.buffer.write(b"".join(struct.pack("<Q", p) for p in loop))' > fewodd.pcs
tr_ 0 "" --elf good.elf fewodd.pcs
grep -q "signals [0-9][0-9]\?$" err.txt || { cat err.txt; fail "fewodd: odd arrivals taken as signals"; }
tr_ 1 "random.log" --elf good.elf --format qemu-log random.log
tr_ 1 "notrace.log" --elf good.elf notrace.log
tr_ 1 "badtrace.log: offset 0x2c6: malformed Trace line" --elf good.elf badtrace.log
tr_ 1 "badtrace2.log: offset 0x0" --elf good.elf badtrace2.log
tr_ 0 "" --elf good.elf bigcpu.log
tr_ 1 "manycpu.log: offset 0x" --elf good.elf manycpu.log
grep -q "more than 4096 distinct cpus" err.txt || fail "manycpu message"
# 4096 cpus with one pc each is a log to accept, and a new cpu must cost little: at
# ~40 KiB per call stack (a 1024-slot table and a 512-node slab per trie) this log took
# 171 MB, and the thread array, grown by one entry per new cpu, was copied 4096 times
# (7.7 GB copied in all: 36 s of CPU for manycpu.log under ASan).  Checked on peak RSS
# (getrusage, no timing): of the plain build for what is kept (about 14 MB now), and of
# the ASan build, whose quarantine keeps freed blocks (up to its size, 256 MB), so that
# memory allocated and freed counts too (38 MB now; 336 MB with the old array growth).
tr_ 0 "" --elf good.elf cpu4096.log
echo "main 4096" | cmp -s - out.folded || { cat out.folded; fail "cpu4096.log folded"; }
peak_rss() { # KiB of the command's peak RSS
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
rss=$(peak_rss "$TEPHRA" trace --elf good.elf cpu4096.log -o rss.folded) ||
	fail "cpu4096.log (plain build)"
[ "$rss" -lt 40000 ] || fail "cpu4096.log: peak RSS $rss KiB for 4096 cpus of one pc each"
rss=$(ASAN_OPTIONS=${ASAN_OPTIONS:-}:quarantine_size_mb=256 peak_rss "$T" trace --elf good.elf \
	cpu4096.log -o rss.folded) || fail "cpu4096.log (ASan build)"
[ "$rss" -lt 120000 ] || fail "cpu4096.log under ASan: peak RSS $rss KiB for 4096 cpus"
tr_ 0 "" --elf good.elf bigpc.log
tr_ 0 "" --elf good.elf flags.log
tr_ 0 "" --elf good.elf --format qemu-log nul.log
tr_ 0 "" --elf good.elf longline.log
tr_ 0 "" --elf good.elf noeol.log
tr_ 1 "$TEST_TMP" --elf good.elf "$TEST_TMP"
tr_ 1 "missing.log" --elf good.elf missing.log
expect 0 "" sh -c "$T trace --elf good.elf - < good.log > out.folded"
expect 1 "<stdin>" sh -c "$T trace --elf good.elf - < /dev/null > out.folded"
expect 1 "/nonexistent/x" "$T" trace --elf good.elf good.pcs -o /nonexistent/x
# Argument errors.
expect 2 "" "$T" trace good.pcs
expect 2 "" "$T" trace --elf good.elf
expect 2 "" "$T" trace --elf good.elf a b
expect 2 "" "$T" trace --elf good.elf --format elf good.pcs
expect 2 "" "$T" trace --bogus

# symbolize.
expect 0 "" "$T" symbolize --elf good.elf good.raw
printf 'main 3\nmain;leaf 7\n' | cmp -s - out.txt || { cat out.txt; fail "good.raw symbolized"; }
expect 0 "" "$T" symbolize --elf good.elf hostile.raw  # non-hex frames are kept as they are
expect 0 "" "$T" symbolize --elf good.elf deep.raw
expect 1 "negative.raw: offset 0x0" "$T" symbolize --elf good.elf negative.raw
expect 1 "overflow.raw: offset 0x0" "$T" symbolize --elf good.elf overflow.raw
expect 1 "sum.raw: offset 0x1d: the counts add up to more than 2^64" "$T" symbolize --elf good.elf sum.raw
expect 1 "nul.raw: offset 0x0" "$T" symbolize --elf good.elf nul.raw
expect 1 "random.raw: offset 0x" "$T" symbolize --elf good.elf random.raw
expect 1 "missing.raw" "$T" symbolize --elf good.elf missing.raw
expect 1 "$TEST_TMP" "$T" symbolize --elf good.elf "$TEST_TMP"
expect 1 "/nonexistent/x" "$T" symbolize --elf good.elf -o /nonexistent/x good.raw
expect 2 "" "$T" symbolize good.raw
expect 2 "" "$T" symbolize --elf good.elf

# emu: argument errors (no guest is run).
expect 2 "" "$T" emu
expect 2 "" "$T" emu --bogus -- ./x
echo "ok: $ncases cases"
