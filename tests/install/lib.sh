# lib.sh - shared by the tests/install/*.test.sh scripts (sourced).
set -u
: "${TOP:?}" "${TEPHRA:?}" "${TEST_TMP:?}"
export LC_ALL=C
cd "$TEST_TMP" || exit 1

. "$TOP/tests/skips.sh"
fail() { echo "FAIL: $*"; exit 1; }

VERSION=$(cat "$TOP/VERSION")
# The commands, one per cli/cmd_<name>.c (main.c lists them all).
COMMANDS=$(cd "$TOP/cli" && ls cmd_*.c | sed 's/^cmd_//; s/\.c$//')

# install_into ROOT [make variables...]: make install with DESTDIR=ROOT (PREFIX /usr/local
# unless given), from the already built tree.
install_into() {
	local root=$1; shift
	make -s -C "$TOP" install DESTDIR="$root" "$@" >"$TEST_TMP/install.log" 2>&1 ||
		{ cat "$TEST_TMP/install.log"; fail "make install DESTDIR=$root $*"; }
}
