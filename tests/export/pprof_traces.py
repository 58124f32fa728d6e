#!/usr/bin/env python3
"""Reads `go tool pprof -traces` text on stdin and prints it as folded stacks,
sorted: "ROOT;outermost;...;leaf VALUE", ROOT from the sample's labels (--root comm:
the thread label, as `tephra fold` roots; --root none: no root; --root labels:
"thread/pid/tid", to check the labels).  --tid T: only samples labelled tid T.  Values must be plain numbers (run pprof
with -unit=ns or a count sample index); inlined frames lose pprof's " (inline)" mark.
Stacks met more than once are summed."""
import re
import sys

root_mode, only_tid = "comm", None
args = sys.argv[1:]
while len(args) >= 2:
    if args[0] == "--root":
        root_mode = args[1]
    elif args[0] == "--tid":
        only_tid = args[1]
    args = args[2:]

stacks = {}
labels, frames, value = {}, [], None


def flush():
    global labels, frames, value
    if value is not None and (only_tid is None or labels.get("tid") == only_tid):
        comm = labels.get("thread", "").replace(" ", "_")
        frames = [f[:-len(" (inline)")] if f.endswith(" (inline)") else f for f in frames]
        if root_mode == "comm":
            root = [comm]
        elif root_mode == "labels":
            root = ["%s/%s/%s" % (labels.get("thread", ""), labels.get("pid", "?"),
                                  labels.get("tid", "?"))]
        else:
            root = []
        key = ";".join(root + frames[::-1])
        stacks[key] = stacks.get(key, 0) + value
    labels, frames, value = {}, [], None


value_line = re.compile(r"^ *(\d+)(?:ns)?(?: {3}(.*))?$")
label_line = re.compile(r"^ *([A-Za-z_]+):  (.*)$")
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("-----------+"):
        flush()
        continue
    if value is None:
        m = value_line.match(line)
        if m:
            value = int(m.group(1))
            if m.group(2):
                frames.append(m.group(2))
            continue
        m = label_line.match(line)
        if m:
            labels[m.group(1)] = m.group(2)
        continue
    if line.startswith("             "):
        frames.append(line[13:])
flush()
for key in sorted(stacks):
    print("%s %d" % (key, stacks[key]))
