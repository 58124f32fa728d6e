#!/usr/bin/env bash
# Every command's --help lists exactly the options the command accepts: each long
# option of its getopt table (cli/cmd_<name>.c, and cli/flame_cli.c's or
# cli/export_source.h's, cli/symbol_cli.h's for the commands that take them) is named in its --help; each option a --help item starts with is in
# the table; the same for one-letter options and the getopt string.  And no option is
# listed twice (tephra record once listed -o twice, with two meanings).
. "$TOP/tests/install/lib.sh"

for cmd in $COMMANDS; do
	src=$TOP/cli/cmd_$cmd.c
	"$TEPHRA" "$cmd" --help >help.txt 2>&1 || fail "tephra $cmd --help: exit status $?"
	grep -q "^usage: tephra $cmd" help.txt || fail "tephra $cmd --help: no usage line"
	tables=$src
	grep -q 'flame_cli_merge_options' "$src" && tables="$tables $TOP/cli/flame_cli.c"
	# export_source.h holds two tables: each macro's lines, where the command uses it
	: >source_tables
	for m in EXPORT_SOURCE_LONG_OPTIONS EXPORT_SOURCE_NAMING_LONG_OPTIONS; do
		grep -q "$m," "$src" &&
			sed -n "/^#define $m\\b/,/[^\\\\]\$/p" "$TOP/cli/export_source.h" >>source_tables
	done
	tables="$tables source_tables"
	grep -q 'SYMBOL_CLI_LONG_OPTIONS' "$src" && tables="$tables $TOP/cli/symbol_cli.h"
	# Long options the code accepts: getopt tables, and literal "--name" comparisons
	# (tephra stat parses its few options by hand).
	sed -n 's/.*{ *"\([a-z][a-z0-9-]*\)", *[a-z_]*_argument.*/\1/p' $tables >code_long
	grep -o '"--[a-z][a-z0-9-]*"' "$src" | tr -d '"' | sed 's/^--//' >>code_long
	sort -u -o code_long code_long
	sed -i '/^help$/d' code_long
	# Short options: the getopt_long option string.
	code_short=$(sed -n 's/.*getopt_long([^"]*"\([^"]*\)".*/\1/p' "$src" | tr -d ':+h')
	# Options the help's items start with (the term: up to two spaces).
	sed -n 's/^ \{2,8\}\(-[^ ].*\)$/\1/p' help.txt | sed 's/  .*//' >terms
	grep -o -- '--[a-z][a-z0-9-]*' terms | sed 's/^--//' | grep -v '^help$' | sort >help_long
	grep -o -- '^-[a-zA-Z]' terms | sed 's/^-//' | grep -v '^h$' | sort >help_short
	grep -o -- '--[a-z][a-z0-9-]*' help.txt | sed 's/^--//' | sort -u >help_all

	while read -r o; do
		grep -qx -- "$o" help_all || fail "tephra $cmd accepts --$o but its --help does not name it"
	done <code_long
	while read -r o; do
		grep -qx -- "$o" code_long || fail "tephra $cmd --help lists --$o, which the command does not accept"
	done <help_long
	dup=$(uniq -d help_long)
	[ -z "$dup" ] || fail "tephra $cmd --help lists --$dup twice"
	dup=$(uniq -d help_short)
	[ -z "$dup" ] || fail "tephra $cmd --help lists -$dup twice"
	for ((i = 0; i < ${#code_short}; i++)); do
		l=${code_short:i:1}
		grep -qx -- "$l" help_short || fail "tephra $cmd accepts -$l but its --help does not list it"
	done
	while read -r l; do
		[[ $code_short == *"$l"* ]] || fail "tephra $cmd --help lists -$l, which the command does not accept"
	done <help_short
	# The version closes every help.
	tail -n 1 help.txt | grep -q "^tephra $VERSION " || fail "tephra $cmd --help does not end with the version"
done
echo ok
