#!/usr/bin/env bash
# aarch64 unwinding, checked on an x86_64 host: tests/unwind/progs/aarch64_capture.c is
# cross-compiled (static, no frame pointers), run under qemu-aarch64, and writes the
# registers (perf's aarch64 numbering), its stack and its maps as a perf DWARF sample
# would carry them, taken in f3 of main -> f1 -> f2 -> f3.  build/unwind/unwind-capture
# must walk f3, f2, f1, main (function names from the binary's symbol table, read with
# nm, not by us) to the outermost frame; with only 40 bytes of stack it must say
# "stack cut short" after f3.
set -u
work=${TEST_TMP:-$(mktemp -d)}
cc=aarch64-linux-gnu-gcc nm=aarch64-linux-gnu-nm
for tool in $cc $nm qemu-aarch64; do
	command -v $tool >/dev/null || { echo "$tool is not installed (scripts/install-deps test)"; exit 77; }
done
$cc -O2 -g -static -fomit-frame-pointer -o "$work/capture" "$TOP/tests/unwind/progs/aarch64_capture.c" || exit 1
qemu-aarch64 "$work/capture" "$work/sample.txt" || { echo "the capture program failed under qemu"; exit 1; }
$nm -n "$work/capture" | awk '$2 ~ /^[tTwW]$/ { print $1, $3 }' >"$work/syms"

# Prints the function holding each frame's lookup pc, one per line.
functions() {
	# hex addresses compared as zero-padded 16-digit strings (nm's format)
	awk 'NR == FNR { addr[NR] = tolower($1); name[NR] = $2; n = NR; next }
	$1 == "frame" {
		pc = tolower(substr($3, 3)); while (length(pc) < 16) pc = "0" pc
		best = "?"
		for (i = 1; i <= n && addr[i] <= pc; i++) best = name[i]
		print best
	}' "$work/syms" "$1"
}

status=0
for bin in "$TOP/build/unwind/unwind-capture" "$TOP/build/asan/unwind/unwind-capture"; do
	[ -x "$bin" ] || continue
	echo "== $bin"
	"$bin" "$work/sample.txt" >"$work/walk.txt" || { status=1; continue; }
	cat "$work/walk.txt"
	got=$(functions "$work/walk.txt" | head -n 4 | tr '\n' ' ')
	[ "$got" = "f3 f2 f1 main " ] || { echo "full stack: frames are '$got', expected 'f3 f2 f1 main '"; status=1; }
	grep -qx 'status complete' "$work/walk.txt" || { echo "full stack: not complete"; status=1; }

	"$bin" --dump 40 "$work/sample.txt" >"$work/cut.txt" || { status=1; continue; }
	cat "$work/cut.txt"
	grep -q '^status stack cut short stack_needed' "$work/cut.txt" || { echo "40-byte dump: not cut short"; status=1; }
	needed=$(awk '/^status/ { print $NF }' "$work/cut.txt")
	[ "${needed:-0}" -gt 40 ] 2>/dev/null || { echo "40-byte dump: stack_needed '$needed'"; status=1; }
	[ "$(functions "$work/cut.txt" | head -n 1)" = f3 ] || { echo "40-byte dump: first frame is not f3"; status=1; }
done
exit $status
