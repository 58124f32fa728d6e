#!/usr/bin/env python3
"""report_dso_sym.py PERF-REPORT-TEXT TEPHRA-JSON PERF-DATA: `tephra report --json -s sym`
against `perf report --no-children --sort dso,sym --stdio -g none` of the same recording:
self percentages per (object, function) equal within rounding.  Functions are told apart
by object: one name in two objects (python3's and ld.so's `_start`) is two rows on both
sides.

Names differ by policy, not by function, and are brought to one key per (object,
address) with binutils (nm, c++filt), not with tephra:
- perf report demangles C++ without parameters and return type
  (`std::_Rb_tree_insert_and_rebalance`), tephra names the symbol whole
  (`std::_Rb_tree_insert_and_rebalance(bool, ...)`): both are a demangling of one symbol
  of the object (`nm`, the object's and its /usr/lib/debug/.build-id file's symbol tables,
  `c++filt` and `c++filt -p`), so both map to its address;
- a function with several ELF symbols (aliases: `__memmove_evex_unaligned_erms` and
  `__memcpy_evex_unaligned_erms`) maps to the one address;
- GCC's clone suffixes (`.constprop.0`) are perf report's, tephra names the function;
- a PLT entry: perf `std::f@plt`, tephra `_ZSt1f...@plt`: the demangled base plus `@plt`;
- unresolved code: perf names it by address, one row per address; tephra by its object
  (`[libfoo.so]`), or with --addrs by object and address (`[libfoo.so <1a2b>]`): the
  first is compared per object (summed), the second per address.
Rows either side shows below 0.01% may be missing on the other.  Exit 1 with the
differences."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_objects import objects  # noqa: E402

perf_text, tephra_json, perf_data = sys.argv[1:4]


def base(path):
    return path if path.startswith("[") else path.rsplit("/", 1)[-1]


# the standard substitutions, which perf's demangler abbreviates and tephra's spells out
STD = [("std::basic_string<char, std::char_traits<char>, std::allocator<char> >", "std::string"),
       ("std::basic_ostream<char, std::char_traits<char> >", "std::ostream"),
       ("std::basic_istream<char, std::char_traits<char> >", "std::istream"),
       ("std::basic_iostream<char, std::char_traits<char> >", "std::iostream")]


def norm(name):
    for long, short in STD:
        name = name.replace(long, short)
    return name


def symbol_keys(data):
    """{object base name: {name: its group}}: every name of a symbol (mangled, demangled
    whole, demangled without parameters) goes to perf's form (the last), and the forms
    at one address, or of one name at several (overloads, which perf report's rows
    merge), to one group."""
    keys = {}
    for bid, path in objects(data):
        at = {}
        for f in (path, "/usr/lib/debug/.build-id/%s/%s.debug" % (bid[:2], bid[2:])):
            if not os.path.isfile(f):
                continue
            for flags in (["--defined-only"], ["-D", "--defined-only"]):
                syms = subprocess.run(["nm"] + flags + [f], capture_output=True, text=True).stdout
                for s in syms.splitlines():
                    p = s.split()
                    if len(p) == 3 and p[1] in "tTwWiI":
                        at.setdefault(re.sub(r"@.*", "", p[2]), int(p[0], 16))
        names = list(at)
        dem = {}
        for flags in ([], ["-p"]):
            dem[len(flags)] = subprocess.run(["c++filt"] + flags, input="\n".join(names),
                                             capture_output=True, text=True).stdout.splitlines()
        parent = {}

        def find(x):
            while parent.setdefault(x, x) != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a, b):
            a, b = find(a), find(b)
            if a != b:
                parent[max(a, b, key=str)] = min(a, b, key=str)
        table = {}
        for m, full, short in zip(names, dem[0], dem[1]):
            form = norm(CLONE.sub("", short))
            for n in (m, norm(full), form, norm(CLONE.sub("", full))):
                table.setdefault(n, form)
            union(("form", form), ("addr", at[m]))
        keys[base(path)] = {n: find(("form", f)) for n, f in table.items()}
    return keys


CLONE = re.compile(r"(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$")
KEYS = symbol_keys(perf_data)


def demangle_p(name):
    return subprocess.run(["c++filt", "-p"], input=name, capture_output=True, text=True).stdout.strip()


def key(obj, name):
    """(object, what the name stands for)"""
    table = KEYS.get(obj, {})
    if name.endswith("@plt"):
        return (obj, "plt", norm(demangle_p(name[:-4])))
    for n in (name, norm(name), CLONE.sub("", norm(name))):
        if n in table:
            return (obj, "function", table[n])
    return (obj, "name", CLONE.sub("", norm(name)))


HEX = re.compile(r"(0x)?[0-9a-f]{8,}|0x[0-9a-f]+")
perf = {}
row = re.compile(r"^\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$")
for line in open(perf_text, errors="replace"):
    m = row.match(line)
    if not m or line.startswith("#"):
        continue
    pct, obj, name = float(m.group(1)), m.group(2), m.group(4)
    if HEX.fullmatch(name):
        k = (obj, "unresolved", int(name, 16))
    else:
        k = key(obj, name)
    perf[k] = perf.get(k, 0.0) + pct

doc = json.load(open(tephra_json))
ours = {}
by_address = False
for r in doc["rows"]:
    obj = base(r.get("object") or "[unknown]")
    name = r["name"]
    m = re.fullmatch(r"\[(.*) <([0-9a-f]+)>\]", name)
    if m:
        k = (obj, "unresolved", int(m.group(2), 16))
        by_address = True
    elif re.fullmatch(r"\[.+\]", name) and name != "[unknown]" or name == "[unknown]":
        k = (obj, "unresolved", None)
    else:
        k = key(obj, name)
    ours[k] = ours.get(k, 0.0) + r["self_percent"]
rows_of = {}
for k in perf:
    k = (k[0], "unresolved", None) if k[1] == "unresolved" and not by_address else k
    rows_of[k] = rows_of.get(k, 0) + 1
if not by_address:
    # perf's rows per address, summed per object
    summed = {}
    for k, v in perf.items():
        k = (k[0], "unresolved", None) if k[1] == "unresolved" else k
        summed[k] = summed.get(k, 0.0) + v
    perf = summed

bad = []
for k in sorted(set(perf) | set(ours), key=str):
    p, t = perf.get(k), ours.get(k)
    if p is None and t is not None and t >= 0.01:
        bad.append("%s: tephra self %.4f%%, perf has no row" % (k, t))
    elif t is None and p is not None and p >= 0.01:
        bad.append("%s: perf self %.2f%%, tephra has no row" % (k, p))
    elif p is not None and t is not None and abs(p - t) > 0.011 * max(1, rows_of.get(k, 1)):
        bad.append("%s: perf self %.2f%%, tephra %.4f%%" % (k, p, t))
if bad:
    print("\n".join(b[:300] for b in bad[:20]))
    sys.exit(1)
print("%d (object, function) rows agree" % len(perf))
