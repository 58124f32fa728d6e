#!/usr/bin/env bash
# libtephra.a and libtephra.so export exactly the calls of the public headers
# (include/tephra/), all named tephra_*: nm lists no other defined global symbol (the
# .so's only other one is its symbol version, TEPHRA_0), and debian/libtephra0.symbols
# lists the same.  Then a program linking
# capstone, libiberty and libtephra (static, then shared) builds and runs: internal
# names such as xmalloc and cs_free no longer clash with those libraries'.
. "$TOP/tests/install/lib.sh"
[ -f /usr/include/capstone/capstone.h ] || fail "capstone headers missing (scripts/install-deps test: libcapstone-dev)"
A=$TOP/build/libtephra.a
SO=$TOP/build/libtephra.so.$VERSION
[ -f "$A" ] && [ -f "$SO" ] || fail "the public libraries are not built (make)"

# The public calls: every tephra_NAME( declared in the headers.
cat "$TOP"/include/tephra/*.h "$TOP/include/tephra/version.h.in" |
	grep -o '\btephra_[a-z0-9_]*(' | tr -d '(' | sort -u >declared
[ "$(wc -l <declared)" -ge 10 ] || fail "too few public calls found in the headers"

nm -g --defined-only "$A" | awk 'NF == 3 { print $3 }' | sort >a_exported
nm -D --defined-only "$SO" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | grep -vx TEPHRA_0 | sort >so_exported
nm -D --defined-only "$SO" | awk '$3 ~ /^tephra_/ && $3 !~ /@@TEPHRA_0$/ { print "unversioned: " $3 }' >unversioned
for lib in a so; do
	bad=$(grep -v '^tephra_' ${lib}_exported | head -20)
	[ -z "$bad" ] || fail "libtephra.$lib exports names outside tephra_*: $(echo $bad) ($(grep -vc '^tephra_' ${lib}_exported) in all)"
	diff -u declared ${lib}_exported || fail "libtephra.$lib does not export exactly the declared calls"
done
[ ! -s unversioned ] || { cat unversioned; fail "libtephra.so symbols without the TEPHRA_0 version"; }
# The Debian symbols file (minimal package version per call) lists the same calls.
sed -n 's/^ \(tephra_[a-z0-9_]*\)@TEPHRA_0 .*/\1/p' "$TOP/debian/libtephra0.symbols" | sort >debian_symbols
diff -u declared debian_symbols || fail "debian/libtephra0.symbols does not list exactly the public calls"
readelf -d "$SO" | grep -q 'SONAME.*\[libtephra\.so\.0\]' || fail "SONAME is not libtephra.so.0"

CFLAGS="-std=gnu11 -Wall -Wextra -Werror -I$TOP/include -I$TOP/build/include -I/usr/include/libiberty"
cat >expected <<'END'
push rbp
mov rbp, rsp
ret 
libiberty work()
main 1
END
gcc $CFLAGS -o static "$TOP/tests/install/progs/three_libs.c" "$A" -lcapstone -liberty \
	$(pkg-config --libs libdw libelf libzstd zlib libdeflate) -lpthread -lm 2>link.err ||
	{ cat link.err; fail "capstone + libiberty + libtephra.a do not link together"; }
./static >out 2>&1 || { cat out; fail "capstone + libiberty + libtephra.a: the program failed"; }
diff -u expected out || fail "static: output"
gcc $CFLAGS -o shared "$TOP/tests/install/progs/three_libs.c" -L"$TOP/build" -ltephra -lcapstone -liberty \
	2>link.err || { cat link.err; fail "capstone + libiberty + libtephra.so do not link together"; }
LD_LIBRARY_PATH=$TOP/build ./shared >out 2>&1 || { cat out; fail "capstone + libiberty + libtephra.so: the program failed"; }
diff -u expected out || fail "shared: output"
echo ok
