# addr2line: perf 6.1 names inline frames and source lines by asking binutils'
# `addr2line -i -f` (one process per object, so its lookups have memory).  The names
# and positions tephra computes (src/symbol/a2l.c) must be addr2line's, record
# for record (file names reduced to their last component, as perf prints them), over
# four addresses per function symbol (start, a third, two thirds, last byte), asked in
# the same order, of: libc's and ld.so's debug files, libstdc++ (no DWARF: ELF symbols
# only), the C, C++ and Rust workloads, and an -O2 C++ program.
set -u
: "${TEPHRA:?}" "${TOP:?}" "${TEST_TMP:?}"
export LC_ALL=C
. "$TOP/tests/skips.sh"
command -v addr2line >/dev/null 2>&1 || skip "addr2line is not installed (Debian: binutils)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
LIB=$TOP/build/libtephra-internal.a
[ -f "$LIB" ] || { echo "build/libtephra-internal.a missing: run make"; exit 1; }
DRIVER=$TEST_TMP/a2l_driver
cc -std=gnu11 -Wall -Wextra -Werror -O2 -D_GNU_SOURCE -I"$TOP/src" -o "$DRIVER" \
	"$TOP/tests/perf-dwarf/a2l_driver.c" "$LIB" -ldw -lelf -lzstd -lz -ldeflate -liberty -lpthread -lm ||
	{ echo "building the driver failed"; exit 1; }
"$TOP/tests/workloads/build.sh" "$TEST_TMP/workloads" || { echo "building the workloads failed"; exit 1; }
failures=0 checked=0

# the file perf asks about: the debug file of FILE's build-id when installed
debug_file() {
	local f bid
	f=$(readlink -f "$1")
	bid=$(readelf -n "$f" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
	if [ -n "$bid" ] && [ -f "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ]; then
		echo "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
	else
		echo "$f"
	fi
}

check() { # NAME FILE
	local name=$1 file=$2
	[ -f "$file" ] || { partial "$name: $file absent, not checked"; return; }
	readelf -sW "$file" 2>/dev/null | python3 -c '
import sys
seen = set()
for l in sys.stdin:
    p = l.split()
    if len(p) >= 8 and p[3] == "FUNC" and p[6] != "UND" and p[2].isdigit() and int(p[2]) > 0:
        v, s = int(p[1], 16), int(p[2])
        for a in (v, v + s // 3, v + 2 * s // 3, v + s - 1):
            if a not in seen:
                seen.add(a)
                print("%x" % a)
' >"$TEST_TMP/$name.addrs"
	[ -s "$TEST_TMP/$name.addrs" ] || { echo "FAIL: $name: no function symbols in $file"; failures=$((failures + 1)); return; }
	addr2line -i -f -a -e "$file" <"$TEST_TMP/$name.addrs" 2>/dev/null |
		sed -E 's/ \(discriminator [0-9]+\)$//; /^0x/!{ /:[0-9?]+$/ s#^.*/([^/]*:[0-9?]+)$#\1# }' \
		>"$TEST_TMP/$name.a2l"
	"$DRIVER" "$file" <"$TEST_TMP/$name.addrs" >"$TEST_TMP/$name.ours" 2>"$TEST_TMP/$name.err" || {
		echo "FAIL: $name: driver failed: $(head -n 2 "$TEST_TMP/$name.err")"; failures=$((failures + 1)); return; }
	checked=$((checked + 1))
	if cmp -s "$TEST_TMP/$name.a2l" "$TEST_TMP/$name.ours"; then
		echo "ok: $name: $(wc -l <"$TEST_TMP/$name.addrs") addresses, $(wc -l <"$TEST_TMP/$name.a2l") lines identical"
	else
		echo "FAIL: $name: differs from addr2line (< addr2line, > tephra):"
		diff "$TEST_TMP/$name.a2l" "$TEST_TMP/$name.ours" | head -n 12
		failures=$((failures + 1))
	fi
}

check libc "$(debug_file /lib/x86_64-linux-gnu/libc.so.6)"
check ld.so "$(debug_file /lib64/ld-linux-x86-64.so.2)"
check libstdc++ "$(readlink -f /usr/lib/x86_64-linux-gnu/libstdc++.so.6)"
check templates "$TEST_TMP/workloads/templates"
check recurse "$TEST_TMP/workloads/recurse"
[ -x "$TEST_TMP/workloads/spin" ] && check rust "$TEST_TMP/workloads/spin"
if want_tool g++ "cxx-O2"; then
	g++ -O2 -g -o "$TEST_TMP/cxx" "$TOP/tests/symbol/progs/cxx_templates.cpp" ||
		{ echo "FAIL: g++ cannot build tests/symbol/progs/cxx_templates.cpp"; exit 1; }
	check cxx-O2 "$TEST_TMP/cxx"
fi
[ "$checked" -gt 0 ] || skip "no object could be checked"
if [ "$failures" -ne 0 ]; then
	echo "$failures object(s) differ"
	exit 1
fi
exit 0
