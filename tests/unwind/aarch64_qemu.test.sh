#!/usr/bin/env bash
# aarch64 unwinding, checked on an x86_64 host: tests/unwind/progs/aarch64_capture.c is
# cross-compiled (no frame pointers) and run under qemu-aarch64; it writes its registers
# (perf's aarch64 numbering), its stack and its maps as a perf DWARF sample would carry
# them, taken in f3 of main -> f1 -> f2 -> f3 (x29 overwritten).
# build/unwind/unwind-capture must walk f3, f2, f1, main (names from the binary's symbol
# table, read with nm, not by us) to the outermost frame; with only 40 bytes of stack it
# must say "stack cut short" after f3.  Twice: a static executable, and a PIE linked
# against the cross libc (so the walk crosses libc and ld.so at their load biases).
set -u
work=${TEST_TMP:-$(mktemp -d)}
cc=aarch64-linux-gnu-gcc nm=aarch64-linux-gnu-nm
for tool in $cc $nm qemu-aarch64; do
	command -v $tool >/dev/null || { echo "$tool is not installed (scripts/install-deps test)"; exit 77; }
done
sysroot=/usr/aarch64-linux-gnu

# functions WALK BINARY: the function holding each frame's lookup pc, one per line.
functions() {
	local walk=$1 bin=$2 base=0 line
	# the executable's load address: its mapping of file offset 0 (0 when not PIE)
	line=$(awk -v b="$bin" '$1 == "map" && $4 == "0" && $5 == b { print $2; exit }' "$work/sample.txt")
	if [ -n "$line" ] && [ "$(readelf -h "$bin" | awk '/Type:/ { print $2 }')" = DYN ]; then
		base=$((16#$line))
	fi
	awk '$1 == "frame" { print $3 }' "$walk" | while read -r pc; do
		printf '%016x\n' $((pc - base))
	done >"$work/pcs"
	# hex addresses compared as zero-padded 16-digit strings (nm's format)
	awk 'NR == FNR { addr[NR] = tolower($1); name[NR] = $2; n = NR; next }
	{
		best = "?"
		for (i = 1; i <= n && addr[i] <= $1; i++) best = name[i]
		print best
	}' "$work/syms" "$work/pcs"
}

status=0
for kind in static pie; do
	if [ $kind = static ]; then
		$cc -O2 -g -static -fomit-frame-pointer -o "$work/capture" \
			"$TOP/tests/unwind/progs/aarch64_capture.c" || exit 1
		qemu-aarch64 "$work/capture" "$work/sample.txt" || { echo "capture failed under qemu"; exit 1; }
	else
		$cc -O2 -g -fPIE -pie -fomit-frame-pointer -o "$work/capture" \
			"$TOP/tests/unwind/progs/aarch64_capture.c" || exit 1
		qemu-aarch64 -L $sysroot "$work/capture" "$work/sample.txt" ||
			{ echo "capture failed under qemu"; exit 1; }
		grep -q "^map .*libc.so" "$work/sample.txt" || { echo "pie: libc is not in the maps"; status=1; }
	fi
	$nm -n "$work/capture" | awk '$2 ~ /^[tTwW]$/ { print $1, $3 }' >"$work/syms"
	for bin in "$TOP/build/unwind/unwind-capture" "$TOP/build/asan/unwind/unwind-capture"; do
		[ -x "$bin" ] || continue
		echo "== $kind: $bin"
		"$bin" "$work/sample.txt" >"$work/walk.txt" || { status=1; continue; }
		cat "$work/walk.txt"
		got=$(functions "$work/walk.txt" "$work/capture" | head -n 4 | tr '\n' ' ')
		[ "$got" = "f3 f2 f1 main " ] ||
			{ echo "$kind: frames are '$got', expected 'f3 f2 f1 main '"; status=1; }
		grep -qx 'status complete' "$work/walk.txt" || { echo "$kind: not complete"; status=1; }
		[ "$(grep -c '^frame' "$work/walk.txt")" -ge 6 ] ||
			{ echo "$kind: the walk stopped before libc's start code"; status=1; }

		# the fast path (cached CFI rows) did the walk, and libdwfl's unwinder agrees
		grep -qx 'fast 1' "$work/walk.txt" || { echo "$kind: not walked on cached CFI rows"; status=1; }
		"$bin" --libdwfl-only "$work/sample.txt" | grep -v '^fast' >"$work/walk-libdwfl.txt"
		grep -v '^fast' "$work/walk.txt" | cmp -s - "$work/walk-libdwfl.txt" ||
			{ echo "$kind: --libdwfl-only walks differently:"; cat "$work/walk-libdwfl.txt"; status=1; }

		"$bin" --dump 40 "$work/sample.txt" >"$work/cut.txt" || { status=1; continue; }
		cat "$work/cut.txt"
		grep -q '^status stack cut short stack_needed' "$work/cut.txt" ||
			{ echo "$kind, 40-byte dump: not cut short"; status=1; }
		needed=$(awk '/^status/ { print $NF }' "$work/cut.txt")
		[ "${needed:-0}" -gt 40 ] 2>/dev/null || { echo "$kind, 40-byte dump: stack_needed '$needed'"; status=1; }
		[ "$(functions "$work/cut.txt" "$work/capture" | head -n 1)" = f3 ] ||
			{ echo "$kind, 40-byte dump: first frame is not f3"; status=1; }
	done
done
exit $status
