#!/usr/bin/env bash
# Stripped binaries whose symbols live in a separate debug file: found through
# .gnu_debuglink (next to the binary, and in .debug/ beside it), and through the
# build-id (BUILD-ID-CACHE/.build-id/xx/rest/debug).  Recorded without filling the
# cache with the binary, so only the debug files can name the functions.
. "$TOP/tests/symbol/lib.sh"
need_perf
command -v objcopy >/dev/null || skip "objcopy not installed"
cd "$TEST_TMP"
build_split() { # name debugdir(relative or "") : builds NAME stripped, NAME.debug in DIR
	gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o "$1" "$PROGS/plt_main.c" \
		-L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail "build $1"
	objcopy --only-keep-debug "$1" "$1.debug" || fail objcopy
	objcopy --strip-all "$1" || fail strip
	if [ -n "$2" ]; then
		mkdir -p "$2"
		mv "$1.debug" "$2/"
	fi
	objcopy --add-gnu-debuglink="${2:+$2/}$1.debug" "$1" || fail debuglink
}
gcc -O1 -g -fno-omit-frame-pointer -shared -fPIC -o libtiny.so "$PROGS/plt_lib.c" || fail "build lib"
build_split dl_next ""
build_split dl_dotdebug .debug
for exe in dl_next dl_dotdebug; do
	perf --buildid-dir "$BID" record --no-buildid-cache -q -e cpu-clock -F 4000 -g \
		-o $exe.data -- ./$exe 20000000 >/dev/null 2>&1 || fail "record $exe"
	compare $exe.data
	expect_line $exe.data "(weak_work|local_work|main)\+0x[0-9a-f]+ \($TEST_TMP/$exe\)"
done

# by build-id: debug file in the build-id cache, no debuglink
gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o bid_only "$PROGS/plt_main.c" \
	-L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail "build bid_only"
objcopy --only-keep-debug bid_only bid_only.debug && objcopy --strip-all bid_only || fail strip
bid=$(readelf -n bid_only | sed -n 's/.*Build ID: //p')
[ -n "$bid" ] || fail "no build-id"
mkdir -p "$BID/.build-id/${bid:0:2}/${bid:2}"
mv bid_only.debug "$BID/.build-id/${bid:0:2}/${bid:2}/debug"
perf --buildid-dir "$BID" record --no-buildid-cache -q -e cpu-clock -F 4000 -g \
	-o bid.data -- ./bid_only 20000000 >/dev/null 2>&1 || fail "record bid_only"
compare bid.data
expect_line bid.data "(weak_work|local_work|main)\+0x[0-9a-f]+ \($TEST_TMP/bid_only\)"

# /usr/lib/debug/PATH.debug (Fedora layout) and /usr/lib/debug/PATH (Ubuntu layout),
# inside a --symfs root so the system directories stay untouched.
SYMFS=$TEST_TMP/symfs
for layout in fedora ubuntu; do
	exe=$layout
	gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o $exe "$PROGS/plt_main.c" \
		-L. -ltiny -Wl,-rpath,"$TEST_TMP" || fail "build $exe"
	objcopy --only-keep-debug $exe $exe.debug && objcopy --strip-all $exe || fail strip
	mkdir -p "$SYMFS$TEST_TMP" "$SYMFS/usr/lib/debug$TEST_TMP"
	cp $exe "$SYMFS$TEST_TMP/$exe"
	cp libtiny.so "$SYMFS$TEST_TMP/"
	if [ $layout = fedora ]; then
		mv $exe.debug "$SYMFS/usr/lib/debug$TEST_TMP/$exe.debug"
	else
		# Ubuntu's layout uses the binary's own path under /usr/lib/debug
		mv $exe.debug "$SYMFS/usr/lib/debug$TEST_TMP/$exe"
	fi
	perf --buildid-dir "$BID" record --no-buildid-cache -q -e cpu-clock -F 4000 -g \
		-o $exe.data -- ./$exe 20000000 >/dev/null 2>&1 || fail "record $exe"
	PERF_SCRIPT_OPTS=(--symfs "$SYMFS")
	compare $exe.data --symfs "$SYMFS"
	unset PERF_SCRIPT_OPTS
	expect_line $exe.data "(weak_work|local_work|main)\+0x[0-9a-f]+ \($TEST_TMP/$exe\)"
done
