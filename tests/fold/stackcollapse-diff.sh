#!/usr/bin/env bash
# stackcollapse-diff.sh SCRIPT [FIRST_SEED [LAST_SEED]] - manual differential check:
# folds random inputs from gen_perf_script.py with SCRIPT (a copy of FlameGraph's
# stackcollapse-perf.pl, obtained separately: it is not part of this repository) and with
# build/fold/fold-text, under several option sets, and reports any difference.  Not a
# test (tests never depend on the script); docs/folding.md gives the figures it produced.
set -u
script=${1:?usage: stackcollapse-diff.sh path/to/stackcollapse-perf.pl [first [last]]}
first=${2:-1} last=${3:-200}
here=$(cd "$(dirname "$0")" && pwd)
driver=$here/../../build/fold/fold-text
tmp=$(mktemp -d /tmp/stackcollapse-diff.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0 runs=0
for seed in $(seq "$first" "$last"); do
	python3 "$here/gen_perf_script.py" "$seed" >"$tmp/in"
	for opts in "" "--pid" "--tid" "--kernel" "--jit" "--all --addrs" "--addrs --tid" \
		"--event-filter=cycles" "--srcline" "--srcline --all --tid"; do
		# shellcheck disable=SC2086
		perl "$script" $opts "$tmp/in" >"$tmp/theirs" 2>/dev/null
		# shellcheck disable=SC2086
		"$driver" $opts "$tmp/in" >"$tmp/ours" 2>/dev/null
		runs=$((runs + 1))
		if ! cmp -s "$tmp/theirs" "$tmp/ours"; then
			fails=$((fails + 1))
			echo "seed $seed, options '$opts':"
			diff "$tmp/theirs" "$tmp/ours" | head -6
		fi
	done
done
echo "$runs runs, $fails differences"
[ "$fails" -eq 0 ]
