#!/usr/bin/env python3
"""speedscope_check.py FILE.json DIR [SCHEMA]: checks a speedscope file tephra wrote
for one recording.  DIR holds, per thread TID sampled (perf script's view):
  TID.name     "COMM (PID/TID)" as perf script prints comm, pid and tid
  TID.periods  the sample periods of the thread, one a line, in perf script's (time)
               order
  TID.folded   `tephra fold --only-tid TID` without its root frame
Checks: one sampled profile per thread and no other, named so; its weights are the
periods in the same order (time order, nothing merged or lost); endValue their sum;
its samples, named through the shared frame table and summed, are the folded stacks.
With SCHEMA (speedscope's file-format-schema.json) the file is validated against it
first.  Exit 1 with the differences."""
import json
import os
import sys

path, d = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
bad = []
if len(sys.argv) > 3:
    import jsonschema
    try:
        jsonschema.validate(doc, json.load(open(sys.argv[3])))
    except jsonschema.ValidationError as e:
        bad.append("not valid against speedscope's schema: %s" % e.message)
frames = doc["shared"]["frames"]
profiles = {p["name"]: p for p in doc["profiles"]}
tids = sorted(f[:-5] for f in os.listdir(d) if f.endswith(".name"))
want_names = {}
for tid in tids:
    want_names[open(os.path.join(d, tid + ".name")).read().strip()] = tid
if set(profiles) != set(want_names):
    bad.append("profiles %s, threads %s" % (sorted(profiles), sorted(want_names)))
for name, tid in sorted(want_names.items()):
    p = profiles.get(name)
    if not p:
        continue
    periods = [int(x) for x in open(os.path.join(d, tid + ".periods")).read().split()]
    if p["weights"] != periods:
        bad.append("%s: %d weights, perf script has %d periods; first difference at %s" % (
            name, len(p["weights"]), len(periods),
            next((i for i, (a, b) in enumerate(zip(p["weights"], periods)) if a != b), "the end")))
    if p["endValue"] != sum(periods) or p["startValue"] != 0:
        bad.append("%s: values %s..%s, periods sum to %d" % (name, p["startValue"], p["endValue"], sum(periods)))
    got = {}
    for stack, w in zip(p["samples"], p["weights"]):
        key = ";".join(frames[i]["name"] for i in stack)
        got[key] = got.get(key, 0) + w
    want = {}
    for line in open(os.path.join(d, tid + ".folded"), errors="replace"):
        stack, _, w = line.rstrip("\n").rpartition(" ")
        want[stack] = want.get(stack, 0) + int(w)
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:5]
        bad.append("%s: stacks differ from tephra fold's, e.g. %s" % (name, diff))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("%d threads, %d frames agree" % (len(profiles), len(frames)))
