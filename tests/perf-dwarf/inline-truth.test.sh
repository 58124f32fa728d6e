# inline-truth: tephra's default names of a DWARF recording are the functions the DWARF
# nests at each address, as llvm-symbolizer --inlining gives them (issue 26 §2), not
# binutils addr2line's answers that perf script prints: no phantom caller
# (perf: main;sort<...>;main;__introsort_loop, where main's call site is in __sort
# inlined into std::sort inlined into main), and a lambda comparator's samples are in
# the lambda (operator()), not in std::__introsort_loop; Go's inlined sort.Ints is
# main.sorter;sort.Ints, not main.sorter;main.sorter; an inlined member template is
# tb::bench::Registry<int>::upsert<double>(int, double), its linkage name's.  Return addresses are looked
# up at the call (address - 1), the leaf at its address.  Oracle: for every sample whose
# leaf is in the program, the chains llvm-symbolizer gives for its frames in the program
# (addresses from perf script) must end a fold line, and a speedscope export's sample,
# carrying exactly the periods perf recorded (inline_truth.py).  --compat keeps perf's
# names (check_fold: the collapse of perf script's text).
. "$TOP/tests/perf/lib.sh"
need_perf
command -v g++ >/dev/null 2>&1 || skip "g++ is not installed"
command -v llvm-symbolizer >/dev/null 2>&1 || skip "llvm-symbolizer is not installed (Debian: llvm)"
command -v c++filt >/dev/null 2>&1 || skip "c++filt is not installed (binutils)"
g++ -O2 -g -o "$TEST_TMP/sortl" "$TOP/tests/perf-dwarf/sort_lambda.cpp" || exit 1
record "$TEST_TMP/sortl.data" -e cpu-clock -F 2000 --call-graph dwarf -- "$TEST_TMP/sortl" 60
perf script --no-inline -F comm,tid,period,ip,dso -i "$TEST_TMP/sortl.data" \
	>"$TEST_TMP/sortl.txt" 2>/dev/null || fail "perf script failed"
"$TEPHRA" fold -q "$TEST_TMP/sortl.data" >"$TEST_TMP/sortl.fold" || fail "tephra fold failed"
"$TEPHRA" export -f speedscope -o "$TEST_TMP/sortl.ss" "$TEST_TMP/sortl.data" 2>/dev/null ||
	fail "tephra export failed"
python3 "$TOP/tests/perf-dwarf/inline_truth.py" "$TEST_TMP/sortl.txt" "$TEST_TMP/sortl" \
	"$TEST_TMP/sortl.fold" "$TEST_TMP/sortl.ss" || fail "names differ from llvm-symbolizer's"
# the premises: the recording has the cases the test is about
grep -q ';operator() [0-9]*$' "$TEST_TMP/sortl.fold" || fail "no sample in the lambda"
grep -q ';main;sort<[^;]*;__sort<' "$TEST_TMP/sortl.fold" || fail "no stack through std::sort inlined into main"
check_fold sortl-compat "$TEST_TMP/sortl.data" "" ""

# C++ member templates: the inlined frame's name is its linkage name's, qualified
g++ -O2 -g -o "$TEST_TMP/registry" "$TOP/tests/perf-dwarf/registry.cpp" || exit 1
record "$TEST_TMP/reg.data" -e cpu-clock -F 2000 --call-graph dwarf -- "$TEST_TMP/registry" 1000000
perf script --no-inline -F comm,tid,period,ip,dso -i "$TEST_TMP/reg.data" \
	>"$TEST_TMP/reg.txt" 2>/dev/null || fail "perf script failed"
"$TEPHRA" fold -q "$TEST_TMP/reg.data" >"$TEST_TMP/reg.fold" || fail "tephra fold failed"
"$TEPHRA" export -f speedscope -o "$TEST_TMP/reg.ss" "$TEST_TMP/reg.data" 2>/dev/null ||
	fail "tephra export failed"
python3 "$TOP/tests/perf-dwarf/inline_truth.py" "$TEST_TMP/reg.txt" "$TEST_TMP/registry" \
	"$TEST_TMP/reg.fold" "$TEST_TMP/reg.ss" || fail "registry: names differ from llvm-symbolizer's"
grep -qF ';main;void tb::bench::Registry<int>::upsert<double>(int, double);' "$TEST_TMP/reg.fold" ||
	fail "registry: upsert is not named tb::bench::Registry<int>::upsert<double>(int, double)"
check_fold reg-compat "$TEST_TMP/reg.data" "" ""
if [ -x "${TEPHRA_ASAN:-}" ]; then
	"$TEPHRA_ASAN" fold -q "$TEST_TMP/sortl.data" >"$TEST_TMP/sortl-asan.fold" 2>"$TEST_TMP/asan.err" ||
		fail "ASan: $(head -n 5 "$TEST_TMP/asan.err")"
	same_bytes "ASan build: fold" "$TEST_TMP/sortl.fold" "$TEST_TMP/sortl-asan.fold"
fi

# Go: sort.Ints inlined into main.sorter (perf's addr2line answer made it
# main.sorter;main.sorter).  perf 6.1 cannot unwind Go's stacks (go.test.sh): the
# addresses are tephra script's, checked against perf's there; the names are
# llvm-symbolizer's here.
if command -v go >/dev/null 2>&1; then
	GOCACHE=$TEST_TMP/gocache GOPATH=$TEST_TMP/gopath GO111MODULE=off GOFLAGS= \
		go build -o "$TEST_TMP/gosort" "$TOP/tests/perf-dwarf/gosort.go" >"$TEST_TMP/gobuild.log" 2>&1 || {
		cat "$TEST_TMP/gobuild.log"; fail "go build failed"; }
	record "$TEST_TMP/go.data" -e cpu-clock -F 2000 --call-graph dwarf -- "$TEST_TMP/gosort" 40
	"$TEPHRA" script --no-inline -F comm,tid,period,ip,dso -i "$TEST_TMP/go.data" \
		>"$TEST_TMP/go.txt" 2>/dev/null || fail "tephra script failed"
	"$TEPHRA" fold -q "$TEST_TMP/go.data" >"$TEST_TMP/go.fold" || fail "tephra fold failed"
	"$TEPHRA" export -f speedscope -o "$TEST_TMP/go.ss" "$TEST_TMP/go.data" 2>/dev/null ||
		fail "tephra export failed"
	python3 "$TOP/tests/perf-dwarf/inline_truth.py" "$TEST_TMP/go.txt" "$TEST_TMP/gosort" \
		"$TEST_TMP/go.fold" "$TEST_TMP/go.ss" || fail "Go: names differ from llvm-symbolizer's"
	grep -q ';main\.sorter;sort\.Ints;' "$TEST_TMP/go.fold" || fail "Go: no stack main.sorter;sort.Ints"
else
	echo "go is not installed (Debian: golang-go): the Go case is not run"
fi
finish
