#!/usr/bin/env bash
# Bad input never crashes or hangs: random bytes, NUL bytes, a 4 MB line, a line built
# to make a backtracking matcher quadratic, an empty file, a missing file, a directory.
. "$(dirname "$0")/lib.sh"

run_all() { # NAME SECONDS FILE [OPTIONS...]: exit 0 within SECONDS, output kept in out
	local name=$1 secs=$2 file=$3 d rc
	shift 3
	for d in "${DRIVERS[@]}"; do
		timeout "$secs" "$d" "$@" "$file" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
		rc=$?
		if [ "$rc" -ne 0 ]; then
			echo "FAIL $name ($d): exit status $rc"
			tail -5 "$TEST_TMP/err"
			failures=$((failures + 1))
		fi
	done
}

# Random bytes with the characters that matter to the parser made frequent.
python3 - "$TEST_TMP/random" <<'PY'
import random, sys
random.seed(20261123)
alphabet = b" \t\n\n\n()[]:;/->+0x12ab_#\"'\x00\xff\r" + bytes(range(256))
with open(sys.argv[1], "wb") as f:
    f.write(bytes(random.choice(alphabet) for _ in range(300000)))
PY
run_all "random bytes" 60 "$TEST_TMP/random" --all --addrs --tid

# NUL bytes are ordinary bytes of a name.
fold_check "NUL in names" "" 'sh 1 1.0: 2 cycles:\n\t1 a\0b (/x)\n\t2 [unknown] (/l\0ib)\n\n' 'sh;[l\0ib];a\0b 2\n'

# One 4 MB symbol, and a comm followed by 2 MB of blanks and no number (each run of
# blanks must be tried once, not once per byte: this would take hours if quadratic).
python3 - "$TEST_TMP/long" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("sh 1 1.0: 3 cycles:\n\t1 " + "x" * (4 << 20) + " (/x)\n\n")
    f.write("ab" + " " * (2 << 20) + "x\n")
    f.write("\t1 " + "(" * (1 << 20) + "\n")
    f.write("\t1" + " (" * (1 << 20) + "\n\n")
PY
run_all "long lines" 60 "$TEST_TMP/long"
if [ "$(head -c 3 "$TEST_TMP/out")" != "sh;" ] || [ "$(tail -c 4 "$TEST_TMP/out")" != "x 3" ] ||
	[ "$(wc -c <"$TEST_TMP/out")" -ne $(((4 << 20) + 3 + 2 + 1)) ]; then
	echo "FAIL long lines: unexpected output"
	failures=$((failures + 1))
fi

: >"$TEST_TMP/empty"
fold_check "empty input" "" '' ''

for d in "${DRIVERS[@]}"; do
	if "$d" "$TEST_TMP/does-not-exist" >/dev/null 2>"$TEST_TMP/err" ||
		! grep -q "does-not-exist" "$TEST_TMP/err"; then
		echo "FAIL missing file ($d): no error naming the file"
		failures=$((failures + 1))
	fi
	mkdir -p "$TEST_TMP/dir"
	if "$d" "$TEST_TMP/dir" >/dev/null 2>"$TEST_TMP/err" ||
		! grep -q "dir: offset 0x0: read error" "$TEST_TMP/err"; then
		echo "FAIL directory ($d): expected a read error naming file and offset"
		cat "$TEST_TMP/err"
		failures=$((failures + 1))
	fi
done

fold_done
