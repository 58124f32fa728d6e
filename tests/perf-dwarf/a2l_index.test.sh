# a2l_index: inline chains and the function binutils' addr2line picks come from an index
# built once per compile unit (src/symbol/a2l_unit_index.c), never from a walk of the
# unit's DIEs per address.  On the C++ template-heavy shape (tests/workloads/
# sort_map_pairs.cpp, -O2 -g: one unit, thousands of inlined subroutines):
# - every third byte of .text answered record for record as `addr2line -i -f` (binutils,
#   what perf 6.1 asks) answers it;
# - counted through -Wl,--wrap of libdw's dwarf_child and dwarf_getscopes_die: at most
#   one lookup per compile unit walks DIEs (the one that builds the unit's index); the
#   same on a sweep of libc's debug file (hundreds of units) when it is installed.
set -u
: "${TEPHRA:?}" "${TOP:?}" "${TEST_TMP:?}"
export LC_ALL=C
. "$TOP/tests/skips.sh"
command -v addr2line >/dev/null 2>&1 || skip "addr2line is not installed (Debian: binutils)"
command -v g++ >/dev/null 2>&1 || skip "g++ is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
LIB=$TOP/build/libtephra-internal.a
[ -f "$LIB" ] || { echo "build/libtephra-internal.a missing: run make"; exit 1; }
LIBS="-ldw -lelf -lzstd -lz -ldeflate -liberty -lpthread -lm"
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -O2 -D_GNU_SOURCE -I$TOP/src"
# shellcheck disable=SC2086
cc $CFLAGS -o "$TEST_TMP/a2l_driver" "$TOP/tests/perf-dwarf/a2l_driver.c" "$LIB" $LIBS &&
	cc $CFLAGS -Wl,--wrap=dwarf_child,--wrap=dwarf_getscopes_die -o "$TEST_TMP/a2l_walks" \
		"$TOP/tests/perf-dwarf/a2l_walks.c" "$LIB" $LIBS || { echo "building the drivers failed"; exit 1; }
prog=$TEST_TMP/sort_map_pairs
g++ -O2 -g -o "$prog" "$TOP/tests/workloads/sort_map_pairs.cpp" || { echo "building the C++ shape failed"; exit 1; }
failures=0

# ADDRESSES FILE STEP: every STEP-th byte of FILE's .text, in hex
text_addresses() {
	readelf -SW "$1" 2>/dev/null | python3 -c '
import sys
step = int(sys.argv[1])
for l in sys.stdin:
    p = l.replace("[ ", "[").split()
    if len(p) > 5 and p[1] == ".text":
        lo, n = int(p[3], 16), int(p[5], 16)
        sys.stdout.write("".join("%x\n" % a for a in range(lo, lo + n, step)))
' "$2"
}
units() { readelf --debug-dump=info "$1" 2>/dev/null | grep -c "DW_TAG_compile_unit"; }

# WALKS NAME FILE ADDRS: at most one walking lookup per unit
walks() {
	local name=$1 file=$2 addrs=$3 out n_units
	out=$("$TEST_TMP/a2l_walks" "$file" <"$addrs") || { echo "FAIL: $name: a2l_walks failed"; failures=$((failures + 1)); return; }
	n_units=$(units "$file")
	read -r _ lookups _ walked <<<"$out"
	if [ "$lookups" -gt 0 ] && [ "$walked" -le "$n_units" ]; then
		echo "ok: $name: $lookups lookups, $walked walked DIEs ($n_units units)"
	else
		echo "FAIL: $name: $walked of $lookups lookups walked DIEs; at most $n_units (one per unit) should"
		failures=$((failures + 1))
	fi
}

text_addresses "$prog" 3 >"$TEST_TMP/cxx.addrs"
[ "$(wc -l <"$TEST_TMP/cxx.addrs")" -gt 1000 ] || { echo "FAIL: too few addresses in $prog's .text"; exit 1; }
addr2line -i -f -a -e "$prog" <"$TEST_TMP/cxx.addrs" |
	sed -E 's/ \(discriminator [0-9]+\)$//; /^0x/!{ /:[0-9?]+$/ s#^.*/([^/]*:[0-9?]+)$#\1# }' >"$TEST_TMP/cxx.a2l"
"$TEST_TMP/a2l_driver" "$prog" <"$TEST_TMP/cxx.addrs" >"$TEST_TMP/cxx.ours" || { echo "FAIL: a2l_driver failed"; exit 1; }
grep -q "^std::__introsort_loop\|^_ZSt16__introsort_loop" "$TEST_TMP/cxx.a2l" ||
	{ echo "FAIL: addr2line names no std::__introsort_loop: the shape did not exercise the case"; exit 1; }
if cmp -s "$TEST_TMP/cxx.a2l" "$TEST_TMP/cxx.ours"; then
	echo "ok: sort_map_pairs: $(wc -l <"$TEST_TMP/cxx.addrs") addresses, $(wc -l <"$TEST_TMP/cxx.a2l") lines identical to addr2line"
else
	echo "FAIL: sort_map_pairs: differs from addr2line (< addr2line, > tephra):"
	diff "$TEST_TMP/cxx.a2l" "$TEST_TMP/cxx.ours" | head -n 20
	failures=$((failures + 1))
fi
walks sort_map_pairs "$prog" "$TEST_TMP/cxx.addrs"

libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null)
bid=$([ -n "$libc" ] && readelf -n "$libc" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
if [ -n "$bid" ] && [ -f "$dbg" ] ||
	partial "libc's debug file is not installed (Debian: libc6-dbg): its sweep not run"; then
	text_addresses "$dbg" 37 >"$TEST_TMP/libc.addrs"
	walks libc "$dbg" "$TEST_TMP/libc.addrs"
fi
[ "$failures" -eq 0 ]
