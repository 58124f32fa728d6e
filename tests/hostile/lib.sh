# tests/hostile/lib.sh - shared by tests/hostile/*.test.sh (sourced, not run).
# Each case runs the ASan+UBSan build under tests/bounded 20 (CPU seconds) and checks: the exit status
# (never 124 = hang, 134 = abort, 139 = segfault), no sanitizer report, and for an
# expected failure an error line on stderr that names the input file.
set -u
fail() { echo "FAIL: $*"; exit 1; }
. "$TOP/tests/skips.sh"
command -v python3 >/dev/null || skip "python3 not installed"
[ -x "$TEPHRA_ASAN" ] || fail "$TEPHRA_ASAN not built (make asan)"
cd "$TEST_TMP" || exit 1
ncases=0

# expect WANT NAME-IN-ERROR CMD...: WANT is 0 (the input is legitimately fine), 1 (an
# error) or 2 (a usage error); stderr is kept in err.txt.  For WANT != 0 stderr must hold
# a "tephra" line containing NAME-IN-ERROR (a file name, or the text of the complaint).
expect() {
	local want=$1 name=$2; shift 2
	ncases=$((ncases + 1))
	"$TOP/tests/bounded" 20 "$@" >out.txt 2>err.txt
	local rc=$?
	case $rc in
	124) fail "hang (20 s of CPU or 400 s of wall time): $*";;
	134|139) head -n 20 err.txt; fail "crash (exit $rc): $*";;
	esac
	if grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' err.txt; then
		head -n 30 err.txt; fail "sanitizer report: $*"
	fi
	[ "$rc" = "$want" ] || { head -n 5 err.txt; fail "exit $rc, want $want: $*"; }
	if [ "$want" != 0 ] && [ -n "$name" ]; then
		grep -F "tephra" err.txt | grep -qF -- "$name" ||
			{ head -n 5 err.txt; fail "no error line naming '$name': $*"; }
	fi
	return 0
}
