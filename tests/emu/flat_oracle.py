#!/usr/bin/env python3
"""flat_oracle.py GUEST PCS FOLDED [LIMIT] [--slack FUNC:N]

Checks a folded profile against QEMU's own record of execution: PCS is one executed pc
(hex) per line from `qemu-riscv64 -singlestep -d exec,nochain`; each pc is given to the
function whose symbol covers it (readelf's symbol table, with the documented rules of
docs/emu.md, "Symbols": a zero-size symbol strictly inside a sized function symbol is a
label and names nothing; other zero-size function symbols end at the next function symbol
or their section's end; nested symbols own their own range; aliases named global > weak >
local; NOTYPE symbols of executable sections name only what no function symbol covers).
Per function, the number of executed pcs must equal the self count of that function in
FOLDED (the weight of lines whose leaf frame it is).  Pcs outside every symbol and leaf
frames in brackets ([signal N], [unknown]) are compared as one bucket.  LIMIT: use only
the first LIMIT pcs (0 = all).  --slack FUNC:N lets FUNC's profile count exceed QEMU's by
up to N (and the total by as much): a guest fault stops a translation block midway, after
the plugin counted it whole."""
import bisect
import re
import subprocess
import sys

FUNC, CODE = 0, 1  # function symbols; NOTYPE symbols in code (lowest priority)


def readelf(guest, opt):
    return subprocess.run(["riscv64-linux-gnu-readelf", opt, guest], capture_output=True,
                          text=True, check=True).stdout


def sections(guest):
    """index -> (end address, executable)"""
    secs = {}
    for line in readelf(guest, "-SW").splitlines():
        m = re.match(r"^\s*\[\s*(\d+)\]\s(.*)$", line)
        if not m:
            continue
        f = m.group(2).split()
        if len(f) < 8:
            continue
        # ... Address Off Size ES [Flg] Lk Inf Al: flags may be empty
        flags = f[-4] if re.fullmatch(r"[A-Za-z]+", f[-4]) else ""
        es = -5 if flags else -4
        try:
            addr, size = int(f[es - 3], 16), int(f[es - 1], 16)
        except ValueError:
            continue
        secs[int(m.group(1))] = (addr + size, "X" in flags)
    return secs


class Owner:
    """Which symbol covers a pc, by the rules in the module comment."""

    def __init__(self, guest):
        secs = sections(guest)
        rank = {"GLOBAL": 2, "WEAK": 1, "LOCAL": 0}
        syms = []
        for line in readelf(guest, "-sW").splitlines():
            f = line.split()
            if len(f) < 8 or not f[6].isdigit():
                continue
            limit, code = secs.get(int(f[6]), (0, False))
            if f[3] in ("FUNC", "IFUNC"):
                kind = FUNC
            elif f[3] == "NOTYPE" and code and not f[7].startswith(("$", ".L")):
                kind = CODE
            else:
                continue
            size = int(f[2], 16) if f[2].startswith("0x") else int(f[2])
            syms.append((int(f[1], 16), size, kind, rank.get(f[4], 0), f[7], limit))
        sized = [(s[0], s[0] + s[1]) for s in syms if s[2] == FUNC and s[1]]
        syms = [s for s in syms
                if s[1] or not any(lo < s[0] < hi for lo, hi in sized)]  # labels
        # One symbol per start: function symbols first, then binding, then size.
        syms.sort(key=lambda s: (s[0], s[2], -s[3], -s[1]))
        uniq = []
        for s in syms:
            if uniq and uniq[-1][0] == s[0]:
                u = uniq[-1]
                if u[2] == s[2] and s[1] > u[1]:
                    uniq[-1] = (u[0], s[1], u[2], u[3], u[4], max(u[5], s[5]))
                continue
            uniq.append(s)
        self.spans = {FUNC: [], CODE: []}
        for i, (start, size, kind, _, name, limit) in enumerate(uniq):
            end = start + size
            if size == 0:
                if kind == CODE and limit <= start:
                    continue
                later = (u[0] for u in uniq[i + 1:] if kind == CODE or u[2] == FUNC)
                end = next(later, limit if limit > start else start + 1)
                if start < limit < end:
                    end = limit
            self.spans[kind].append((start, end, name))
        self.starts = {k: [s[0] for s in v] for k, v in self.spans.items()}
        self.longest = {k: max((s[1] - s[0] for s in v), default=0)
                        for k, v in self.spans.items()}
        self.cache = {}

    def __call__(self, pc):
        if pc not in self.cache:
            self.cache[pc] = None
            for kind in (FUNC, CODE):
                # The innermost (latest-starting) symbol covering pc.
                spans = self.spans[kind]
                i = bisect.bisect_right(self.starts[kind], pc) - 1
                while i >= 0 and pc - spans[i][0] < self.longest[kind] and pc >= spans[i][1]:
                    i -= 1
                if i >= 0 and spans[i][0] <= pc < spans[i][1]:
                    self.cache[pc] = spans[i][2]
                    break
        return self.cache[pc]


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
    owner = Owner(guest)
    want = {}
    with open(pcs_path) as f:
        for i, line in enumerate(f):
            if limit is not None and i >= limit:
                break
            pc = int(line, 16)
            name = owner(pc) or "[outside symbols]"
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
