#!/usr/bin/env bash
# The man pages are written from the --help texts at build time (dist/man-from-help):
# tephra(1) names every command and tephra-COMMAND(1) exists for each; every option a
# --help names is in its page as rendered by man(1), and the page carries the version;
# man reports no formatting problem.
. "$TOP/tests/install/lib.sh"
command -v man >/dev/null || skip "man is not installed (Debian: man-db)"
MAN=$TOP/build/man

render() { # page -> text as a reader sees it (no hyphenation, no bold overstrikes)
	MANWIDTH=200 man --warnings -l "$1" 2>"$TEST_TMP/man.err" | col -b | sed 's/‐/-/g'
	[ ! -s "$TEST_TMP/man.err" ] || { cat "$TEST_TMP/man.err"; fail "man warns about $1"; }
}

check_page() { # help-text-file page
	local page=$2
	[ -f "$page" ] || fail "$page missing (make builds the man pages)"
	render "$page" >page.txt
	grep -v "^tephra $VERSION " "$1" | grep -o -- '--\?-[a-zA-Z][a-zA-Z0-9-]*' | sort -u |
	while read -r o; do
		grep -qe "$o" page.txt || fail "$(basename "$page"): option $o of --help is missing"
	done || exit 1
	grep -q "tephra $VERSION" page.txt || fail "$(basename "$page"): no version $VERSION"
	# Every piece of text of the help is in the page: each run of words of each line
	# (items split at their two-space gap; a heading without its colon).
	tr -s ' \t\n' '   ' <page.txt >page.flat
	grep -v "^usage:\|^tephra $VERSION\|^\$" "$1" | sed 's/^ *//; s/:$//; s/ \{2,\}/\n/g' |
	while read -r piece; do
		grep -qF -- "$piece" page.flat || fail "$(basename "$page"): '$piece' of --help is missing"
	done || exit 1
}

"$TEPHRA" --help >main.txt
check_page main.txt "$MAN/tephra.1"
for cmd in $COMMANDS; do
	grep -q "^  $cmd " main.txt || fail "tephra --help does not list $cmd"
	grep -q "tephra-$cmd(1)" page.txt 2>/dev/null || render "$MAN/tephra.1" | grep -q "tephra-$cmd(1)" ||
		fail "tephra(1) does not refer to tephra-$cmd(1)"
	"$TEPHRA" "$cmd" --help >help.txt
	check_page help.txt "$MAN/tephra-$cmd.1"
	render "$MAN/tephra-$cmd.1" | grep -q "^ *tephra-$cmd - " || fail "tephra-$cmd(1): no NAME line"
done
echo ok
