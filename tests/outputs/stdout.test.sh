#!/usr/bin/env bash
# "-o -" is standard output in every command that takes -o (before: grind and emu
# wrote a file named "-"; record's graph is the exception, refused: the profiled
# command prints there): the same bytes as -o FILE where the output is deterministic,
# well-formed output where it is not (a new recording, a new Valgrind run), and no file
# named "-".  Then every command that prints on standard output, sent to /dev/full,
# exits 1 with "tephra CMD: write error: No space left on device" (before: stat exited 0
# silently); the oracle is the device's ENOSPC, which dd shows first.
. "$(dirname "$0")/lib.sh"
make_inputs
dd if=/dev/zero of=/dev/full bs=1 count=1 2>dd.err && fail "premise: /dev/full took a write"
grep -q 'No space left on device' dd.err || fail "premise: /dev/full: $(cat dd.err)"
for name in $CMDS; do
	if [ "$name" = record-svg ]; then
		run_cmd "$name" -; rc=$?
		[ $rc = 2 ] && grep -q 'the graph needs a file' "$name.err" || fail "record -o -: exit $rc"
		continue
	fi
	run_cmd "$name" -; rc=$?
	[ $rc = 0 ] || { cat "$name.err"; fail "$name -o -: exit $rc"; }
	[ ! -e ./- ] || fail "$name -o -: wrote a file named -"
	mv "$name.out" "$name.stdout"
	case $name in
	record-folded|grind|grind-nochildren)
		[ -s "$name.stdout" ] && ! grep -qvE '^[^ ]+( [^ ]+)* [0-9]+$' "$name.stdout" ||
			fail "$name -o -: not folded stacks: $(head -n 3 "$name.stdout")";;
	grind-svg) ;; # -o - there is the folded file's, not the SVG's
	*)
		run_cmd "$name" file.out || fail "$name -o file.out"
		cmp -s "$name.stdout" file.out || fail "$name: -o - differs from -o FILE";;
	esac
	echo "ok $name -o -"
done
for cmd in "stat perf.data" "stat --records perf.data" "stat --build-ids perf.data" \
	   "script perf.data" "fold perf.data" "report perf.data" "flamegraph a.folded" \
	   "diff a.folded b.folded" "heatmap perf.data" "export -f pprof -o - perf.data" \
	   "export -f callgrind -o - perf.data"; do
	# shellcheck disable=SC2086
	"$TEPHRA" $cmd >/dev/full 2>err; rc=$?
	[ $rc = 1 ] || { cat err; fail "$cmd >/dev/full: exit $rc"; }
	grep -q "^tephra ${cmd%% *}: write error: No space left on device$" err ||
		{ cat err; fail "$cmd >/dev/full: no write error"; }
	echo "ok $cmd >/dev/full"
done
