"""report_objects.py: the objects of a recording for the report comparators
(report_compare.py, report_dso_sym.py): `perf buildid-list` names only those some sample's
leaf is in, so the objects of every frame perf script prints are added, their build-ids
read with readelf (binutils).  objects(DATA) -> [(build-id hex or "", path)]."""
import os
import re
import subprocess


def objects(data):
    out = subprocess.run(["perf", "buildid-list", "-i", data], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and os.path.isfile(parts[1]):
            found[parts[1]] = parts[0]
    text = subprocess.run(["perf", "script", "-F", "ip,dso", "-i", data], capture_output=True,
                          text=True).stdout
    for path in set(re.findall(r"\((/[^()]*)\)\s*$", text, re.M)):
        if path in found or not os.path.isfile(path):
            continue
        notes = subprocess.run(["readelf", "-n", path], capture_output=True, text=True).stdout
        m = re.search(r"Build ID: ([0-9a-f]+)", notes)
        found[path] = m.group(1) if m else ""
    return [(bid, path) for path, bid in sorted(found.items())]
