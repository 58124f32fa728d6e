#!/usr/bin/env bash
# aarch64 samples whose pc is in a PLT stub, checked on an x86_64 host.
# tests/unwind/progs/aarch64_plt_capture.c is cross-compiled as a PIE (no frame
# pointers) calling labs() in the cross libc through its PLT, as main -> f1 -> f2 ->
# labs@plt, and run under qemu-aarch64; it writes the registers, stack and maps of f2 at
# its `bl labs` with what the bl does applied (x30 = return address, pc = the stub +
# OFFSET; "pushed": the PLT header's push of x16/x30 done).  build/unwind/unwind-capture
# must give frame 0 = that pc (an activation) then f2, f1, main (names from the binary's
# own symbol table, read with nm; stub addresses from objdump) down to libc's start
# code, `complete`, on the fast path, and the same with --libdwfl-only.
#
# Linked with GNU ld and (when ld.lld is installed) with lld: neither writes CFI for the
# aarch64 .plt, which the test checks first.  Without unwind_plt_step.c's aarch64 step libdwfl
# falls back to frame pointers: f2 from x30, then its sp from x29, so the walk stops
# there ("bad memory read", x29 garbage) or, with frame pointers (the "fp" case), goes
# on from a wrong frame.
set -u
work=${TEST_TMP:-$(mktemp -d)}
cross=aarch64-linux-gnu
cc=$cross-gcc nm=$cross-nm objdump=$cross-objdump readelf=$cross-readelf
. "$TOP/tests/skips.sh"
for tool in $cc $nm $objdump $readelf qemu-aarch64; do
	need_tool $tool "scripts/install-deps test"
done
sysroot=/usr/aarch64-linux-gnu
prog=$TOP/tests/unwind/progs/aarch64_plt_capture.c
drivers=()
for bin in "$TOP/build/unwind/unwind-capture" "$TOP/build/asan/unwind/unwind-capture"; do
	[ -x "$bin" ] && drivers+=("$bin")
done
[ ${#drivers[@]} -gt 0 ] || { echo "build/unwind/unwind-capture is not built"; exit 1; }

linkers=(gnu)
if want_tool ld.lld "lld's PLT" "Debian: lld"; then
	# the cross gcc finds ld.lld through -B (it has no --ld-path)
	mkdir -p "$work/lldbin" && ln -sf "$(command -v ld.lld)" "$work/lldbin/ld.lld"
	linkers+=(lld)
fi

# section_field BIN SECTION N: field N (1 name, 2 type, 3 address, 4 offset, 5 size) of
# the section's line in readelf -SW
section_field() {
	$readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk -v s="$2" -v n="$3" '$1 == s { print $n; exit }'
}

# name_at SYMS ADDR: the nm symbol holding ADDR (hex, link-time), "?" when none
name_at() {
	local a=$((16#$2)) best="?" addr name
	while read -r addr name; do
		[ $((16#$addr)) -le "$a" ] || break
		best=$name
	done <"$1"
	echo "$best"
}

status=0
fail() { echo "FAIL: $*"; status=1; }

# check_case LABEL BIN EXPECT_HEX ARGS...: capture with ARGS, walk, compare
check_case() {
	local label=$1 bin=$2 expect=$3
	shift 3
	if ! qemu-aarch64 -L $sysroot "$bin" "$work/sample.txt" "$@"; then
		fail "$label: capture failed under qemu"
		return
	fi
	local base exe_end line stub
	# the executable's load address: its first mapping, of file offset 0 (a PIE)
	line=$(awk -v b="$bin" '$1 == "map" && $4 == "0" && $5 == b { print $2; exit }' "$work/sample.txt")
	[ -n "$line" ] || { fail "$label: the executable is not in the maps"; return; }
	base=$((16#$line))
	line=$(awk -v b="$bin" '$1 == "map" && $5 == b { end = $3 } END { print end }' "$work/sample.txt")
	exe_end=$((16#$line))
	stub=$(awk '$1 == "#" && $2 == "stub" { print $3; exit }' "$work/sample.txt")
	[ "$stub" = "$(printf '%#x' $((base + 16#$stub_addr)))" ] ||
		fail "$label: the bl's target $stub is not objdump's labs@plt at $stub_addr"
	for drv in "${drivers[@]}"; do
		echo "== $label ($*): $drv"
		"$drv" "$work/sample.txt" >"$work/walk.txt" || { fail "$label: $drv failed"; continue; }
		local pcs=() lookups=() names="" i=0 pc lk
		while read -r _ pc lk; do
			pcs+=("$pc") lookups+=("$lk")
		done < <(grep '^frame' "$work/walk.txt")
		for ((i = 0; i < ${#pcs[@]}; i++)); do
			local rel n
			rel=$(printf '%x' $((lookups[i] - base)))
			if [ "$i" -eq 0 ]; then
				n=$(name_at "$work/plt_labels" "$rel")
			elif [ $((lookups[i])) -ge "$base" ] && [ $((lookups[i])) -lt "$exe_end" ]; then
				n=$(name_at "$work/syms" "$rel")
			else
				n="(not in the executable)"
			fi
			echo "frame ${pcs[i]} ${lookups[i]}  $n"
			[ "$i" -ge 1 ] && [ "$i" -le 3 ] && names="$names$n "
		done
		grep -v '^frame' "$work/walk.txt"
		[ "${pcs[0]:-}" = "$(printf '%#x' $((base + 16#$expect)))" ] ||
			fail "$label: frame 0 is ${pcs[0]:-none}, expected the PLT address $expect + base"
		[ "${lookups[0]:-}" = "${pcs[0]:-}" ] ||
			fail "$label: frame 0 is not an activation (looked up at ${lookups[0]:-none})"
		[ "$names" = "f2 f1 main " ] || fail "$label: frames 1-3 are '$names', expected 'f2 f1 main '"
		grep -qx 'status complete' "$work/walk.txt" || fail "$label: not complete"
		[ ${#pcs[@]} -ge 6 ] || fail "$label: the walk stopped before libc's start code"
		grep -qx 'fast 1' "$work/walk.txt" || fail "$label: not walked on cached CFI rows"
		"$drv" --libdwfl-only "$work/sample.txt" | grep -v '^fast' >"$work/walk-libdwfl.txt"
		grep -v '^fast' "$work/walk.txt" | cmp -s - "$work/walk-libdwfl.txt" ||
			{ fail "$label: --libdwfl-only walks differently:"; cat "$work/walk-libdwfl.txt"; }
	done
}

for linker in "${linkers[@]}"; do
	for fp in nofp fp; do
		[ $linker = lld ] && [ $fp = fp ] && continue
		exe=$work/capture-$linker-$fp
		flags=(-O2 -g -fPIE -pie)
		[ $fp = fp ] && flags+=(-fno-omit-frame-pointer) || flags+=(-fomit-frame-pointer)
		[ $linker = lld ] && flags+=(-B "$work/lldbin" -fuse-ld=lld)
		$cc "${flags[@]}" -o "$exe" "$prog" || { fail "$linker: build failed"; continue; }
		if [ $linker = lld ]; then
			$readelf -p .comment "$exe" | grep -q LLD || { fail "lld: not linked by lld"; continue; }
		fi

		# the premise: a .plt that no FDE covers
		plt_addr=$(section_field "$exe" .plt 3) plt_size=$(section_field "$exe" .plt 5)
		[ -n "$plt_addr" ] || { fail "$linker: no .plt"; continue; }
		lo=$((16#$plt_addr)) hi=$((16#$plt_addr + 16#$plt_size))
		while read -r range; do
			flo=$((16#${range%%..*})) fhi=$((16#${range##*..}))
			[ $flo -lt $hi ] && [ $lo -lt $fhi ] && fail "$linker: an FDE covers .plt ($range)"
		done < <($readelf --debug-dump=frames "$exe" | sed -n 's/.* FDE cie=.* pc=\([0-9a-f]*\.\.[0-9a-f]*\).*/\1/p')
		plt_addr=$(printf '%x' $((16#$plt_addr)))
		echo "$linker/$fp: .plt at $plt_addr, $plt_size bytes, no FDE covers it"

		$nm -n "$exe" | awk '$2 ~ /^[tTwW]$/ { print $1, $3 }' >"$work/syms"
		# objdump's view of .plt: "ADDR LABEL" per label, "ADDR WORD" per instruction
		$objdump -d -j .plt "$exe" >"$work/plt.dis"
		sed -n 's/^0*\([0-9a-f][0-9a-f]*\) <\(.*\)>:$/\1 \2/p' "$work/plt.dis" >"$work/plt_labels"
		stub_addr=$(awk '$2 == "labs@plt" { print $1 }' "$work/plt_labels")
		[ -n "$stub_addr" ] || { fail "$linker: objdump shows no labs@plt"; continue; }
		# the lazy-binding header: stp x16, x30, [sp, #-16]! first, then up to a br x17
		first_word=$(awk -v a="$plt_addr" '$1 == a ":" { print $2; exit }' <(sed 's/^ *0*//' "$work/plt.dis"))
		header_br=$(awk '$2 == "d61f0220" { sub(":", "", $1); print $1; exit }' <(sed 's/^ *0*//' "$work/plt.dis"))
		off() { echo $((16#$1 - 16#$stub_addr)); }
		hex_plus() { printf '%x' $((16#$1 + $2)); }

		if [ $fp = fp ]; then
			# x29 is f2's frame record: what libdwfl's fallback would lean on
			check_case "$linker/fp: labs@plt+0, x29 kept" "$exe" "$stub_addr" 0 keep-fp
			continue
		fi
		check_case "$linker: labs@plt+0" "$exe" "$stub_addr" 0
		check_case "$linker: labs@plt+12 (br x17)" "$exe" "$(hex_plus "$stub_addr" 12)" 12
		if [ "$first_word" != a9bf7bf0 ] || [ -z "$header_br" ]; then
			fail "$linker: .plt does not start with the lazy-binding header (stp x16, x30 ... br x17)"
			continue
		fi
		check_case "$linker: PLT header, at its push" "$exe" "$plt_addr" "$(off "$plt_addr")"
		check_case "$linker: PLT header, after its push" "$exe" "$(hex_plus "$plt_addr" 4)" \
			"$(off "$(hex_plus "$plt_addr" 4)")" pushed
		check_case "$linker: PLT header, at its br x17" "$exe" "$header_br" "$(off "$header_br")" pushed
	done
done
exit $status
