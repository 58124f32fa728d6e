#!/usr/bin/env python3
"""heatmap_check.py - opens a tephra heatmap page in headless Chromium at selection URLs
and checks what it draws against perf script's samples.

Usage: heatmap_check.py SCRIPT_TEXT FOLD_TOTAL PAGE ROWS PROFILE_DIR FIRST SECOND
  SCRIPT_TEXT  `perf script -F time,period,ip,sym --ns` of the recording (the oracle)
  FOLD_TOTAL   the sum of `tephra fold`'s weights
  PAGE         the page tephra heatmap wrote
  ROWS         its rows per second
  PROFILE_DIR  an empty directory for Chromium's profile
  FIRST        the function of the first phase, SECOND that of the second

A sample at T ns is in column (T - T0) // 1e9 and row ((T - T0) % 1e9) * ROWS // 1e9, T0
the first sample's time (the page's documented rule, worked out here from perf's times
with integers).  The second phase is every cell after the one of the last sample in FIRST;
its flame graph must hold SECOND and not FIRST, and its samples and weight be perf script's."""
import html.parser
import re
import subprocess
import sys

NS = 10**9


def read_samples(path):
    """[(time ns, period, {symbols on the stack})] in perf script's (time) order."""
    samples = []
    head = re.compile(r"^\s*(\d+)\.(\d{9}):\s+(\d+)\s*$")
    for line in open(path, encoding="utf-8", errors="replace"):
        m = head.match(line)
        if m:
            samples.append((int(m.group(1)) * NS + int(m.group(2)), int(m.group(3)), set()))
        elif line.strip() and samples:
            parts = line.split(None, 1)
            if len(parts) == 2:
                samples[-1][2].add(parts[1].split(" (")[0].split("+0x")[0].strip())
    return samples


class Dom(html.parser.HTMLParser):
    """The frames the page drew (name from each .f's title) and #selinfo's numbers."""
    def __init__(self):
        super().__init__()
        self.frames, self.info, self.body = [], None, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if a.get("class") == "f" and "title" in a:
            t = a["title"]
            self.frames.append(t[:t.rindex(" (")])
        if a.get("id") == "selinfo":
            self.info = (a.get("data-samples"), a.get("data-weight"))


def open_page(page, fragment, profile):
    url = "file://" + page + fragment
    out = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                          "--no-first-run", "--disable-background-networking",
                          "--user-data-dir=" + profile, "--dump-dom", url],
                         capture_output=True, text=True, timeout=120)
    d = Dom()
    d.feed(out.stdout)
    return d


def main():
    script, fold_total, page, rows, profile, a, b = sys.argv[1:8]
    fold_total, rows = int(fold_total), int(rows)
    samples = read_samples(script)
    if not samples:
        print("FAIL: perf script printed no samples")
        return 1
    t0 = samples[0][0]

    def cell(t):
        col = (t - t0) // NS
        return col * rows + (t - t0 - col * NS) * rows // NS

    failures = 0

    def check(cond, what):
        nonlocal failures
        print(("ok   " if cond else "FAIL ") + what)
        failures += 0 if cond else 1

    def expect(fragment, name, keep, must=(), must_not=()):
        chosen = [s for s in samples if keep(cell(s[0]))]
        want = (str(len(chosen)), str(sum(s[1] for s in chosen)))
        d = open_page(page, fragment, profile)
        check(d.info == want, "%s: %s samples, weight %s (perf script: %s, %s)" %
              (name, d.info and d.info[0], d.info and d.info[1], want[0], want[1]))
        for f in must:
            check(f in d.frames, "%s: the flame graph has %s" % (name, f))
        for f in must_not:
            check(f not in d.frames, "%s: the flame graph has no %s" % (name, f))
        return d

    whole = expect("", "whole page", lambda c: True, (a, b))
    check(whole.info is not None and whole.info[1] == str(fold_total),
          "whole page: weight equals tephra fold's total %d" % fold_total)
    print("note: decode %s ms, heatmap %s ms, flame graph %s ms" % (
        whole.body.get("data-decode-ms"), whole.body.get("data-heat-ms"),
        whole.body.get("data-flame-ms")))

    last_a = max(cell(s[0]) for s in samples if a in s[2])
    last = cell(samples[-1][0])
    if last_a >= last:
        print("FAIL: no cell after the last sample of " + a)
        return 1
    lo = last_a + 1
    frag = "#sel=t,%d,%d,%d,%d" % (lo // rows, lo % rows, last // rows, last % rows)
    expect(frag, "second phase (time range)", lambda c: lo <= c <= last, (b,), (a,))
    # the same cells backwards: a time range has no direction
    frag = "#sel=t,%d,%d,%d,%d" % (last // rows, last % rows, lo // rows, lo % rows)
    expect(frag, "second phase, dragged backwards", lambda c: lo <= c <= last, (b,), (a,))

    first_b = min(cell(s[0]) for s in samples if b in s[2])
    if first_b > 0:
        hi = first_b - 1
        frag = "#sel=t,0,0,%d,%d" % (hi // rows, hi % rows)
        expect(frag, "first phase", lambda c: c <= hi, (a,), (b,))

    # a rectangle: the first half of every second's rows, in every column
    cols = last // rows
    half = rows // 2
    frag = "#sel=r,0,0,%d,%d" % (cols, half - 1)
    expect(frag, "rectangle of rows 0-%d" % (half - 1), lambda c: c % rows < half)
    # whole columns (what dragging along the seconds axis selects)
    frag = "#sel=r,%d,0,%d,%d" % (cols, cols, rows - 1)
    expect(frag, "column %d" % cols, lambda c: c // rows == cols)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
