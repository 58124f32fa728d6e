#!/usr/bin/env bash
# A frame name made to break out of the page: JIT code (tests/workloads/jit.c) named in
# its /tmp/perf-PID.map with markup, quotes, entities and "</script>".  The page
# opened in headless Chromium must show the name as text, exactly as written (in the
# frame's title), and none of it as elements or script.  x86-64 only (the JIT workload).
. "$TOP/tests/perf/lib.sh"
need_perf
command -v chromium >/dev/null 2>&1 || skip "chromium is not installed"
[ "$(uname -m)" = x86_64 ] || skip "the JIT workload is x86-64 only"
build_workloads
# (no ';': folding makes it ':', as stackcollapse-perf.pl does; "&lt" without one is
# still an entity to an HTML parser)
name='</script><b id="injected">x</b>&lt&gt"quoted" '"'"'single'"'"' \u003c <!-- end'
data=$TEST_TMP/jit.data
record "$data" -e cpu-clock -F 1000 -g -- "$WL/jit" 200 "$name"
map=$(perf script -i "$data" -F pid 2>/dev/null | head -n 1 | tr -d ' ')
"$TEPHRA" heatmap -o "$TEST_TMP/page.html" "$data" 2>"$TEST_TMP/err" ||
	{ fail "tephra heatmap failed: $(head -n 3 "$TEST_TMP/err")"; finish; }
rm -f "/tmp/perf-$map.map"
mkdir -p "$TEST_TMP/chromium"
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	--user-data-dir="$TEST_TMP/chromium" --dump-dom "file://$TEST_TMP/page.html" \
	>"$TEST_TMP/dom.html" 2>/dev/null
python3 - "$TEST_TMP/dom.html" "$name" <<'PY' || fail "the name did not come through as text"
import html.parser, sys
dom, name = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.titles, self.injected, self.ready = [], False, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.injected |= a.get("id") == "injected"
        self.ready |= tag == "body" and "data-ready-ms" in a
        if a.get("class") == "f":
            self.titles.append(a["title"][:a["title"].rindex(" (")])
p = P()
p.feed(dom)
ok = p.ready and name in p.titles and not p.injected
print("ok" if ok else "FAIL", "page drawn: %s, name shown exactly: %s, markup injected: %s" %
      (p.ready, name in p.titles, p.injected))
sys.exit(0 if ok else 1)
PY
finish
