#!/usr/bin/env python3
"""inline_truth.py SCRIPT-TEXT BINARY FOLDED SPEEDSCOPE: the inline-truth test's check.

SCRIPT-TEXT: `perf script --no-inline -F comm,tid,period,ip,dso` of a DWARF recording of
BINARY.  For each sample whose leaf is in BINARY, the frames in BINARY from the leaf up to
the first frame elsewhere (or that llvm-symbolizer cannot name) are named by
llvm-symbolizer --inlining (the leaf at its
address, the others at their return address minus one, where the call is), names as
linkage names through binutils' c++filt, ';' as ':', outermost first.  That is the end of
the sample's stack; tephra's default fold (FOLDED) and its speedscope export (SPEEDSCOPE)
must charge each such end exactly the periods perf recorded for it (a line, or a sample,
whose stack ends with it).  Exit 1 on any difference."""
import collections
import json
import subprocess
import sys

text, binary, folded, speedscope = sys.argv[1:5]

# the executable segments' file offset -> address (perf prints addresses in the file)
loads = []
for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    f = line.split()
    if f and f[0] == "LOAD":
        loads.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))


def vaddr(off):
    for o, v, size in loads:
        if o <= off < o + size:
            return off - o + v
    return off


samples = []  # (periods, [addresses in BINARY, leaf first])
for block in open(text).read().split("\n\n"):
    lines = [l for l in block.split("\n") if l.strip()]
    if len(lines) < 2:
        continue
    period = int(lines[0].split()[-1])
    run = []
    for i, l in enumerate(lines[1:]):
        addr, obj = l.split(None, 1)
        if obj.strip("()") != binary:
            break
        # a return address's call is the byte before it
        run.append(vaddr(int(addr, 16)) - (1 if i else 0))
    if run:
        samples.append((period, run))
if not samples:
    print("FAIL: no sample in %s" % binary)
    sys.exit(1)

addrs = sorted({a for _, run in samples for a in run})
out = subprocess.run(["llvm-symbolizer", "--obj=" + binary, "--inlining", "--no-demangle",
                      "--output-style=LLVM"], input="".join("0x%x\n" % a for a in addrs),
                     capture_output=True, text=True, check=True).stdout
answers = [b.split("\n") for b in out.strip("\n").split("\n\n")]
if len(answers) != len(addrs):
    print("FAIL: llvm-symbolizer gave %d answers for %d addresses" % (len(answers), len(addrs)))
    sys.exit(1)
raw = [a[0::2] for a in answers]  # name, file:line, name, ...: innermost first
names = sorted({n for r in raw for n in r})
dem = subprocess.run(["c++filt"], input="".join(n + "\n" for n in names), capture_output=True,
                     text=True, check=True).stdout.split("\n")
demangled = dict(zip(names, dem))
chain = {a: [demangled[n].replace(";", ":") for n in reversed(r)] for a, r in zip(addrs, raw)}

expected = collections.Counter()
for period, run in samples:
    # the end of the stack is cut at a frame llvm-symbolizer cannot name from DWARF
    # (Go's assembler runtime.goexit): tephra names such a frame by its ELF symbol
    known = []
    for a in run:
        if "??" in chain[a]:
            break
        known.append(a)
    if known:
        expected[";".join(n for a in reversed(known) for n in chain[a])] += period


def charged(stacks):
    got = collections.Counter()
    for stack, weight in stacks:
        for end in expected:
            if stack == end or stack.endswith(";" + end):
                got[end] += weight
    return got


fold = []
for line in open(folded):
    stack, weight = line.rstrip("\n").rsplit(" ", 1)
    fold.append((stack, int(weight)))
ss = json.load(open(speedscope))
frames = [f["name"] for f in ss["shared"]["frames"]]
stacks = []
for p in ss["profiles"]:
    for s, w in zip(p["samples"], p["weights"]):
        stacks.append((";".join(frames[i] for i in s), w))

bad = 0
for what, got in (("fold", charged(fold)), ("speedscope", charged(stacks))):
    for end, weight in sorted(expected.items(), key=lambda kv: -kv[1]):
        if got[end] != weight:
            bad += 1
            if bad <= 4:
                print("FAIL: %s charges %d, perf recorded %d, to the stack ending\n  %s" %
                      (what, got[end], weight, end))
    print("%s: %d stack ends (%d samples) checked" % (what, len(expected), len(samples)))
sys.exit(1 if bad else 0)
