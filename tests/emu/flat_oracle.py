#!/usr/bin/env python3
"""flat_oracle.py GUEST PCS FOLDED [LIMIT] [--slack FUNC:N]

Checks a folded profile against QEMU's own record of execution: PCS is one executed pc
(hex) per line from `qemu-riscv64 -singlestep -d exec,nochain`; each pc is given to the
function whose symbol covers it (readelf's symbol table, with the documented rules:
zero-size symbols end at the next symbol or their section's end, nested symbols own their
own range, aliases named global > weak > local).  Per function, the number of executed
pcs must equal the self count of that function in FOLDED (the weight of lines whose leaf
frame it is).  Pcs outside every symbol and leaf frames in brackets ([signal N],
[unknown]) are compared as one bucket.  LIMIT: use only the first LIMIT pcs (0 = all).
--slack FUNC:N lets FUNC's profile count exceed QEMU's by up to N (and the total by as
much): a guest fault stops a translation block midway, after the plugin counted it whole."""
import bisect
import re
import subprocess
import sys


def symbols(guest):
    sections = {}
    out = subprocess.run(["riscv64-linux-gnu-readelf", "-SW", guest], capture_output=True,
                         text=True, check=True).stdout
    for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)",
                         out, re.M):
        sections[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3), 16))
    out = subprocess.run(["riscv64-linux-gnu-readelf", "-sW", guest], capture_output=True,
                         text=True, check=True).stdout
    rank = {"GLOBAL": 2, "WEAK": 1, "LOCAL": 0}
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or f[3] not in ("FUNC", "IFUNC") or not f[6].isdigit():
            continue
        size = int(f[2], 16) if f[2].startswith("0x") else int(f[2])
        sec = sections.get(int(f[6]), (0, 0))
        syms.append((int(f[1], 16), size, rank.get(f[4], 0), f[7], sec[0] + sec[1]))
    syms.sort(key=lambda s: (s[0], -s[2], -s[1]))
    uniq = []
    for s in syms:
        if uniq and uniq[-1][0] == s[0]:
            if s[1] > uniq[-1][1]:
                uniq[-1] = (uniq[-1][0], s[1], uniq[-1][2], uniq[-1][3], max(uniq[-1][4], s[4]))
            continue
        uniq.append(s)
    funcs = []
    for i, (start, size, _, name, limit) in enumerate(uniq):
        end = start + size
        if size == 0:
            nxt = uniq[i + 1][0] if i + 1 < len(uniq) else (limit if limit > start else start + 1)
            end = min(nxt, limit) if limit > start else nxt
        funcs.append((start, end, name))
    # Flatten: the innermost (latest-starting) symbol covering each point owns it.
    points = sorted({p for f in funcs for p in f[:2]})
    ivals, open_, k = [], [], 0
    for a, b in zip(points, points[1:]):
        open_ = [f for f in open_ if f[1] > a]
        while k < len(funcs) and funcs[k][0] == a:
            open_.append(funcs[k])
            k += 1
        open_ = [f for f in open_ if f[1] > a]
        if open_:
            ivals.append((a, b, open_[-1][2]))
    return ivals


def main():
    args = sys.argv[1:]
    slack = {}
    while "--slack" in args:
        i = args.index("--slack")
        func, n = args[i + 1].rsplit(":", 1)
        slack[func] = int(n)
        del args[i:i + 2]
    guest, pcs_path, folded_path = args[:3]
    limit = int(args[3]) if len(args) > 3 and int(args[3]) > 0 else None
    ivals = symbols(guest)
    los = [iv[0] for iv in ivals]
    want = {}
    with open(pcs_path) as f:
        for i, line in enumerate(f):
            if limit is not None and i >= limit:
                break
            pc = int(line, 16)
            j = bisect.bisect_right(los, pc) - 1
            name = ivals[j][2] if j >= 0 and pc < ivals[j][1] else "[outside symbols]"
            want[name] = want.get(name, 0) + 1
    got = {}
    with open(folded_path) as f:
        for line in f:
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            leaf = stack.split(";")[-1]
            if leaf.startswith("["):
                leaf = "[outside symbols]"
            got[leaf] = got.get(leaf, 0) + int(count)
    bad = 0
    extra = 0
    for name in sorted(set(want) | set(got)):
        w, g = want.get(name, 0), got.get(name, 0)
        if w != g:
            ok = name in slack and 0 <= g - w <= slack[name]
            print(f"{name}: QEMU executed {w}, profile has {g}" + (" (within slack)" if ok else ""))
            if ok:
                extra += g - w
            else:
                bad += 1
    total_w, total_g = sum(want.values()), sum(got.values())
    print(f"total: QEMU {total_w}, profile {total_g}; {len(want)} functions, {bad} differ")
    sys.exit(1 if bad or total_w + extra != total_g else 0)


main()
