# tests/emu/lib.sh - shared by the tests/emu/*.test.sh scripts (sourced, not run).
# Guests are cross-compiled from tests/guests/ into $TEST_TMP; oracles come from QEMU
# itself (its -singlestep exec log: one line per executed instruction) and from the
# disassembly (riscv64-linux-gnu-objdump), never from tephra.
set -u
. "$TOP/tests/skips.sh"
fail() { echo "FAIL: $*"; exit 1; }

command -v qemu-riscv64 >/dev/null || skip "qemu-riscv64 not installed (scripts/install-deps test)"
command -v riscv64-linux-gnu-gcc >/dev/null || skip "riscv64-linux-gnu-gcc not installed (scripts/install-deps test)"
command -v python3 >/dev/null || skip "python3 not installed"
[ -x "$TEPHRA" ] || fail "$TEPHRA not built"
PLUGIN="$TOP/build/qemu/libtephra-qemu.so"
[ -f "$PLUGIN" ] || fail "$PLUGIN not built"
GUESTS="$TOP/tests/guests"
cd "$TEST_TMP" || exit 1

# cc_guest OUT SRC [flags...]: a static RV64 guest.
cc_guest() {
	local out=$1 src=$2; shift 2
	riscv64-linux-gnu-gcc -static -g "$@" -o "$out" "$GUESTS/$src" || fail "cannot build $src"
}

# insns_of BIN FUNC: the number of instructions in FUNC's disassembly.
insns_of() {
	riscv64-linux-gnu-objdump -d --no-show-raw-insn "$1" |
		awk -v f="<$2>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on && /^ *[0-9a-f]+:/ { n++ } END { print n + 0 }'
}

# qemu_pcs QEMU BIN ARGS...: every executed pc, one per line (hex), as QEMU's own
# -singlestep exec log shows them (one translation block = one instruction).  The guest
# gets a clean environment (PATH only), as run_both gives tephra emu.
qemu_pcs() {
	local q=$1; shift
	env -i PATH="$PATH" "$q" -singlestep -d exec,nochain -D pcs.log "$@" >/dev/null 2>&1 </dev/null
	sed -n 's/^Trace [0-9]*: 0x[0-9a-f]* \[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' pcs.log
	rm -f pcs.log
}

# total FOLDED: the sum of the counts.
total() { awk '{ s += $NF } END { print s + 0 }' "$1"; }

# run_both GUEST [args]: runs GUEST under tephra emu (profile GUEST.folded, stderr in
# emu.err) and under QEMU's -singlestep exec log (pcs in GUEST.pcs), both with the same
# clean environment and standard streams so the guest takes the same path.
run_both() {
	local g=$1; shift
	env -i PATH="$PATH" "$TEPHRA" emu --no-svg -o "$g.folded" -- "./$g" "$@" >/dev/null 2>emu.err </dev/null
	local rc=$?
	qemu_pcs qemu-riscv64 "./$g" "$@" >"$g.pcs"
	return $rc
}

# log_to_pcs LOG OUT: QEMU exec log to a binary pc dump (little-endian uint64 per line).
log_to_pcs() {
	python3 - "$1" "$2" <<'PY'
import re, struct, sys
pat = re.compile(r"Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
with open(sys.argv[1]) as f, open(sys.argv[2], "wb") as out:
    for line in f:
        m = pat.match(line)
        if m:
            out.write(struct.pack("<Q", int(m.group(1), 16)))
PY
}
