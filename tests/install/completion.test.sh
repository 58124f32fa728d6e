#!/usr/bin/env bash
# The bash completion (dist/tephra.bash-completion) completes the commands of
# `tephra --help` and each command's options from its --help, and leaves the words
# after "--" (the profiled program's) to file-name completion.
. "$TOP/tests/install/lib.sh"
complete_words() { # words of the command line, the last one being completed
	bash -c '
		. "$1/dist/tephra.bash-completion"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_tephra
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP" "$TEPHRA" "$@" | sort
}
[ "$(complete_words gr)" = grind ] || fail "'gr' does not complete to grind: $(complete_words gr)"
[ "$(complete_words '')" = "$( (echo "$COMMANDS"; echo --help; echo --version) | sort)" ] ||
	fail "the commands offered are not tephra's: $(complete_words '')"
[ "$(complete_words grind --no-)" = "$(printf '%s\n' --no-children --no-svg)" ] ||
	fail "grind --no- does not complete to --no-children and --no-svg: $(complete_words grind --no-)"
complete_words record --fl | grep -qx -- --flamechart || fail "record's shared graph options are not offered"
complete_words record --fo | grep -qx -- --folded || fail "record's own options are not offered"
[ -z "$(complete_words grind -- ./prog --no-)" ] || fail "words after -- are completed as tephra options"
echo ok
