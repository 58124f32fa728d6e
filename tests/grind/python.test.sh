#!/usr/bin/env bash
# Smoke test on a real interpreter: python3 runs to completion under the tool, its
# stacks start at main (or below main), and skipping the object holding the
# interpreter (libpython where Python is built shared, the python3.X executable on
# Debian, which links it in) hides its functions without losing an instruction.
. "$(dirname "$0")/lib.sh"
py=$(readlink -f /usr/bin/python3 2>/dev/null) || skip "no /usr/bin/python3"
[ -x "$py" ] || skip "no /usr/bin/python3"
cd "$TEST_TMP"
export PYTHONHASHSEED=0 # string hashing must not vary between the runs
script='
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(15))'
lib=$(ldd "$py" | awk '/libpython/ { print $1 }')
obj=${lib:-$(basename "$py")}
grind plain.folded -- "$py" -c "$script"
grep -qx 610 plain.folded.out || fail "python printed $(cat plain.folded.out)"
grep -q '_PyEval_EvalFrameDefault' plain.folded || fail "no interpreter frames"
no_match plain.folded '^(\[unknown\]|\?\?\?)'
grind skip.folded --skip-obj=libpython3.11.so.1.0 --skip-obj="$obj" -- "$py" -c "$script"
no_match skip.folded '_PyEval_EvalFrameDefault|Py_BytesMain|PyObject_'
a=$(total plain.folded) b=$(total skip.folded)
# Both runs execute the same program; only the tool's options differ.
[ "$a" = "$b" ] || fail "totals differ: $a without skipping, $b with"
[ "$a" -gt 10000000 ] || fail "only $a instructions"
# The interpreter's stacks start at main (Debian's stripped main tail-calls
# Py_BytesMain) or below main.
others=$(grep -vE '^(main|Py_BytesMain|\(below main\))[; ]' plain.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks rooted elsewhere"; }
