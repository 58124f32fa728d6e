# true-names: tephra fold's default names are the program's (issue 12): the root is the
# thread's comm, whatever it looks like (a program named "w", a thread named "worker 2"),
# and a frame is the whole function name, '(' and quotes included, C++ with its
# parameters, so two function objects' handlers and two overloads do not merge.
# --compat keeps `perf script | stackcollapse-perf.pl`'s lines (checked against
# tests/perf/collapse.py as every parity test is).
# Oracles: perf script's comm column, and the symbols `perf script --no-demangle`
# prints as binutils' c++filt demangles them.
. "$TOP/tests/perf/lib.sh"
need_perf
command -v g++ >/dev/null 2>&1 || skip "g++ is not installed"
command -v c++filt >/dev/null 2>&1 || skip "c++filt is not installed (binutils)"
build_workloads
g++ -O1 -fno-omit-frame-pointer -o "$TEST_TMP/w" "$HERE/true_names.cpp" || exit 1
record "$TEST_TMP/w.data" -g -- "$TEST_TMP/w" 200
record "$TEST_TMP/threads.data" -g -- "$WL/threads" 200

# roots (comm, spaces as '_') and frame names (symbols without +0x demangled by c++filt,
# [dso] for unknown ones, ';' as ':') as perf script prints them, one per line, sorted
perf_names() {
	perf script --no-demangle -i "$1" 2>/dev/null | python3 -c '
import re, sys
roots, frames = set(), set()
for line in sys.stdin:
    m = re.match(r"^\s+[0-9a-f]+ (.*) \((.*)\)$", line.rstrip("\n"))
    if m:
        sym, dso = m.group(1), m.group(2)
        sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
        if sym == "[unknown]":
            sym = "[%s]" % (dso.rsplit("/", 1)[-1] if dso != "[unknown]" else "unknown")
        frames.add(sym.replace(";", ":"))
sys.stdout.write("".join(x + "\n" for x in sorted(frames)))
' | c++filt | sed 's/;/:/g' | LC_ALL=C sort -u >"$2"
	perf script -F comm -i "$1" 2>/dev/null | sed -E 's/^ +//; s/ +$//; s/ /_/g' | sort -u >"$3"
}
# the roots and frame names of a fold
fold_names() {
	cut -d';' -f1 "$1" | sort -u >"$2"
	sed -E 's/ [0-9]+$//' "$1" | cut -d';' -f2- | tr ';' '\n' | sort -u >"$3"
}

for rec in w threads; do
	data=$TEST_TMP/$rec.data
	perf_names "$data" "$TEST_TMP/$rec.perf-frames" "$TEST_TMP/$rec.perf-roots"
	"$TEPHRA" fold -q "$data" >"$TEST_TMP/$rec.fold" || fail "$rec: tephra fold failed"
	fold_names "$TEST_TMP/$rec.fold" "$TEST_TMP/$rec.roots" "$TEST_TMP/$rec.frames"
	same_bytes "$rec: roots are perf's comms" "$TEST_TMP/$rec.perf-roots" "$TEST_TMP/$rec.roots"
	same_bytes "$rec: frames are perf's symbols" "$TEST_TMP/$rec.perf-frames" "$TEST_TMP/$rec.frames"
	check_fold "$rec-compat" "$data" "" ""
done

f=$TEST_TMP/w.fold c=$TEST_TMP/w-compat.fold
grep -q '^w;' "$f" || fail "default: no stack rooted at w"
grep -q '^w;' "$c" && fail "--compat: a root w (the script reads w's header otherwise)"
grep -qF ';std::_Function_handler<double (double), main::{lambda(double)#1}>::_M_invoke(' "$f" ||
	fail "default: no frame for the std::function<double (double)> handler"
grep -qF ';std::_Function_handler<double (long), main::{lambda(long)#2}>::_M_invoke(' "$f" ||
	fail "default: no frame for the std::function<double (long)> handler"
grep -q ';spin(int) ' "$f" && grep -q ';spin(double) ' "$f" ||
	fail "default: the overloads spin(int) and spin(double) are not two frames"
grep -q ';spin ' "$c" || fail "--compat: no frame 'spin' (perf's name for both overloads)"
grep -q ';std::_Function_handler<double  [0-9]*$' "$c" ||
	fail "--compat: the handlers are not cut at '(' into 'std::_Function_handler<double '"
grep -qF ';operator"" _w(unsigned long long) ' "$f" || fail "default: no frame 'operator\"\" _w(unsigned long long)'"
grep -q ';operator _w ' "$c" || fail "--compat: no frame 'operator _w' (quotes deleted)"
grep -q '^worker_2;' "$TEST_TMP/threads.fold" || fail "default: no root worker_2"
grep -q '^worker;' "$TEST_TMP/threads-compat.fold" || fail "--compat: no root worker (the script's reading of 'worker 2')"
finish
