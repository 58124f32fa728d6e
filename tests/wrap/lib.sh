# tests/wrap/lib.sh - shared by the tests/wrap scripts (sourced): `tephra record`, `grind`
# and `emu` run the user's program transparently (its stdout, its exit status, Ctrl-C).
# The scratch directory entered, tests/wrap/spin.c built as ./spin, a TMPDIR of our own
# (where tephra's temporary directories would be left), and helpers.
set -u
: "${TEPHRA:?}" "${TOP:?}" "${TEST_TMP:?}"
export LC_ALL=C
skip() { echo "skip: $*"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$TEST_TMP" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
cc -O1 -g -o spin "$TOP/tests/wrap/spin.c" || { echo "cannot build spin"; exit 1; }
# a program that exits 3, and one that dies of SIGSEGV (raised: certain by construction)
printf 'int main(void) { return 3; }\n' >three.c
printf '#include <signal.h>\nint main(void) { raise(SIGSEGV); return 0; }\n' >segv.c
cc -o three three.c && cc -o segv segv.c || { echo "cannot build three, segv"; exit 1; }
mkdir -p tmp
export TMPDIR=$TEST_TMP/tmp

# status CMD...: prints how CMD ended, as the shell reports it (128 + N for signal N)
status() { "$@" >/dev/null 2>&1 </dev/null; echo $?; }

# no_temp_dirs WHAT: fails if a tephra-* directory is left in TMPDIR.
no_temp_dirs() {
	local left
	left=$(ls "$TMPDIR" | grep '^tephra-')
	[ -z "$left" ] || fail "$1: left $left in TMPDIR"
	rm -rf "${TMPDIR:?}"/tephra-*
}

# in_own_group READY CMD...: starts CMD in the background in a process group of its own
# (job control), its stdout/stderr in bg.out/bg.err, and waits until the file READY
# holds "running" (tests/wrap/spin.c writes it); BG is its pid (= its group's id).
# Returns 1 if CMD ended first.
in_own_group() {
	local ready=$1; shift
	rm -f "$ready"
	set -m
	"$@" >bg.out 2>bg.err </dev/null &
	BG=$!
	set +m
	until grep -qx running "$ready" 2>/dev/null; do
		kill -0 "$BG" 2>/dev/null || return 1
		sleep 0.05
	done
}

# svg_whole FILE: the file is a complete SVG document (an XML parser reads it to its end).
svg_whole() { python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" 2>/dev/null; }
