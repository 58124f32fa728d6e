# lib.sh - shared by the tests/grind/*.test.sh scripts (sourced).
#
# The test programs in progs/ spend their time in work() (progs/work.h), written in
# assembly so that one call work(N) executes exactly 2N+2 instructions:
#     mov %rdi,%rcx ; N x (dec %rcx ; jnz) ; ret
# Expected folded lines for the leaves are therefore worked out by hand from the
# program; everything else is checked structurally or against lackey's total.  Every
# stack of the default mode starts with its process's root frame, the comm (the
# program's base name, 15 bytes at most): "calls;main;a;work 2002"; with
# --no-children the tool's own file has none ("main;a;work 2002").
set -u
: "${TOP:?}" "${TEPHRA:?}" "${TEST_TMP:?}"
PROGS=$TOP/tests/grind/progs

. "$TOP/tests/skips.sh"
fail() { echo "FAIL: $*"; exit 1; }

command -v valgrind >/dev/null || skip "valgrind is not installed"
command -v gcc >/dev/null || skip "gcc is not installed"
[ -f "$TOP/build/grind/lib/VERSION" ] || skip "tool not built (build/grind/lib missing)"
[ -f /usr/include/valgrind/callgrind.h ] || skip "valgrind headers missing"

# The flags every test program is built with: no inlining, no compiler tail calls
# (tests that want tail calls write them in assembly), frame pointers for the
# unwinder's fallback through code without CFI.
CFLAGS_PROG="-O1 -g -fno-inline -fno-optimize-sibling-calls -fno-omit-frame-pointer -I$TOP/include"

build() { # build OUT SRC... [extra flags]
	local out=$1; shift
	gcc $CFLAGS_PROG -o "$TEST_TMP/$out" "$@" || fail "cannot build $out"
}

# grind FOLDED [tephra grind options] -- PROGRAM ARGS: runs tephra grind, no SVG.
grind() {
	local folded=$1; shift
	"$TEPHRA" grind --no-svg -o "$TEST_TMP/$folded" "$@" >"$TEST_TMP/$folded.out" 2>"$TEST_TMP/$folded.err" ||
		{ cat "$TEST_TMP/$folded.err"; fail "tephra grind $* exited $?"; }
	[ -s "$TEST_TMP/$folded" ] || { cat "$TEST_TMP/$folded.err"; fail "$folded is empty"; }
}

# has_line FILE LINE: the exact folded line (stack and count) is present.
has_line() {
	grep -qxF -- "$2" "$1" || { echo "--- $1:"; grep -v '^(below main)' "$1" | head -40; fail "missing line: $2"; }
}
# no_match FILE REGEX: no line matches.
no_match() {
	if grep -qE -- "$2" "$1"; then
		grep -E -- "$2" "$1" | head -5
		fail "$1 has lines matching $2"
	fi
}
total() { awk '{ s += $NF } END { print s + 0 }' "$1"; }

# frame_self FILE FRAME / frame_incl FILE FRAME: the instructions charged to FRAME
# itself (lines ending in it) / to FRAME and all it called (lines holding it once or
# more: no recursion in the programs these are used on).
frame_self() {
	awk -v f="$2" '{ c = $NF; sub(/ [0-9]+$/, ""); n = split($0, a, ";"); if (a[n] == f) s += c }
		END { print s + 0 }' "$1"
}
frame_incl() {
	awk -v f="$2" '{ c = $NF; sub(/ [0-9]+$/, ""); n = split($0, a, ";")
		for (i = 1; i <= n; i++) if (a[i] == f) { s += c; break } } END { print s + 0 }' "$1"
}
# cg_cost OUT FUNC [callgrind_annotate options]: FUNC's cost in callgrind's profile OUT
# (exclusive; --inclusive=yes for inclusive), from callgrind_annotate's function list.
cg_cost() {
	local out=$1 fn=$2; shift 2
	callgrind_annotate --auto=no --threshold=100 "$@" "$out" |
		awk -v fn="$fn" '$0 ~ "^ *[0-9,]+ +\\(.*\\)  [^ ]*:" fn "( \\[|$)" { gsub(",", "", $1); print $1; exit }'
}
