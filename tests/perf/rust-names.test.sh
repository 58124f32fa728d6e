# rust-names: a Rust v0-mangled program's functions are named as llvm-symbolizer, perf
# and rustfilt name them ("std::rt::lang_start_internal"), without the crate hashes
# binutils' verbose demangling adds ("std[e28293b1aa0f68bd]::rt::..."), and the same in
# every output: the default fold, the SVG, report and the speedscope export (issue 26 §2).
# Oracle: the symbols `perf script --no-demangle` prints for the program's own object,
# demangled by llvm-cxxfilt (LLVM's demangler, the one llvm-symbolizer uses).
. "$TOP/tests/perf/lib.sh"
need_perf
RUSTC=$(command -v rustc || echo "$HOME/.cargo/bin/rustc")
[ -x "$RUSTC" ] || skip "rustc not installed"
command -v llvm-cxxfilt >/dev/null 2>&1 || skip "llvm-cxxfilt is not installed (Debian: llvm)"
cd "$TEST_TMP" || exit 1
# v0 mangling is unstable on stable rustc; RUSTC_BOOTSTRAP=1 allows it
RUSTC_BOOTSTRAP=1 "$RUSTC" -O -g -C force-frame-pointers=yes -C symbol-mangling-version=v0 \
	-o rv0 "$TOP/tests/symbol/progs/rust_prog.rs" 2>rustc.err ||
	{ cat rustc.err; grep -q 'symbol-mangling-version' rustc.err && skip "rustc lacks v0 mangling"
	  echo "FAIL: rustc cannot build rust_prog.rs"; exit 1; }
record rv0.data -e cpu-clock -F 2000 -g -- ./rv0 300

# the oracle: every frame perf saw in rv0 itself, demangled by LLVM
perf script --no-demangle -F ip,sym,dso -i rv0.data 2>/dev/null |
	sed -nE 's/^[[:space:]]+[0-9a-f]+ (.*) \(.*\/rv0\)$/\1/p' | sed -E 's/\+0x[0-9a-f]+$//' |
	LC_ALL=C sort -u >mangled
grep -q '^_R' mangled || { echo "FAIL: no v0-mangled (_R) symbol in perf's frames"; exit 1; }
# LLVM's text as perf script and rustfilt print it: a legacy (_ZN) name without its
# ::h<hash> (Debian's rustc 1.63 links std's legacy-mangled frames into the program) and
# no " (.llvm.N)" of a function LTO renamed
llvm-cxxfilt <mangled | sed -E 's/::h[0-9a-f]{16}$//; s/ \(\.llvm\.[0-9]+\)$//' |
	LC_ALL=C sort -u >expected
grep -q '^std::rt::lang_start' expected || { echo "FAIL: the oracle has no std::rt frame"; exit 1; }

"$TEPHRA" fold -q rv0.data >rv0.fold || fail "tephra fold failed"
sed -E 's/ [0-9]+$//' rv0.fold | cut -d';' -f2- | tr ';' '\n' | LC_ALL=C sort -u >fold.names
"$TEPHRA" report --json -n 0 rv0.data 2>/dev/null | python3 -c '
import json, sys
for r in json.load(sys.stdin)["rows"]:
    if r.get("object", "").endswith("/rv0"): print(r["name"])' | LC_ALL=C sort -u >report.names ||
	fail "tephra report failed"
"$TEPHRA" export -f speedscope -o rv0.ss rv0.data 2>/dev/null || fail "tephra export failed"
python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["shared"]["frames"]: print(f["name"])' rv0.ss |
	LC_ALL=C sort -u >speedscope.names
"$TEPHRA" flamegraph -q rv0.data -o rv0.svg 2>/dev/null || fail "tephra flamegraph failed"
# SVG titles: "NAME (time, samples, percent)", with the XML escapes undone
sed -nE 's/.*<title>(.*) \([^()]*\)<\/title>.*/\1/p' rv0.svg |
	sed -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&amp;/\&/g' | LC_ALL=C sort -u >svg.names

for out in fold report speedscope svg; do
	# every name of the program's own functions is LLVM's (the fold and the graph add
	# other objects' frames, and the report only sampled functions: compare the subset)
	LC_ALL=C comm -12 expected "$out.names" >"$out.common"
	[ -s "$out.common" ] || fail "$out: none of llvm-cxxfilt's names (first: $(head -n 1 expected))"
	grep -Eq '^<rust_prog::shapes::Square as rust_prog::shapes::Area>::area$' "$out.common" ||
		fail "$out: the sampled leaf is not named <rust_prog::shapes::Square as rust_prog::shapes::Area>::area"
	if grep -E '\[[0-9a-f]{16}\]' "$out.names" >"$out.hashes"; then
		fail "$out: names with crate hashes, e.g. $(head -n 1 "$out.hashes")"
	fi
done
# the fold has every frame perf saw in the program, each named as LLVM names it
LC_ALL=C comm -23 expected fold.names >missing
[ -s missing ] && fail "fold: frames of rv0 not named as llvm-cxxfilt names them: $(head -n 3 missing | tr '\n' '|')"
[ "$failures" = 0 ] && echo "ok: $(wc -l <expected) v0 names as LLVM's in fold, report, speedscope and SVG"
exit $((failures != 0))
