#!/usr/bin/env bash
# Plain `make` on a machine without the build packages stops before compiling anything
# and names the missing Debian packages and scripts/install-deps, as a configure step
# would (issue 27 §3; it used to stop at "libdeflate.h: No such file or directory").
# The missing pieces are made missing by construction: a pkg-config that fails, a fake
# pkg-config that knows every module but libdeflate, a compiler that finds no
# libiberty/demangle.h.  Each run builds into a directory of its own, which must stay
# empty.
set -u
fail() { echo "FAIL: $*"; exit 1; }
cd "$TEST_TMP" || exit 1
hint='run scripts/install-deps (or make demo / make check, which run it)'

# build NAME MAKE-ARGS...: make fails, says HINT, compiles nothing; stderr in NAME.err
build() {
	local name=$1; shift
	make -C "$TOP" --no-print-directory BUILD="$TEST_TMP/$name" "$@" > "$name.out" 2> "$name.err" &&
		fail "$name: make succeeded"
	grep -qF "$hint" "$name.err" || fail "$name: no install-deps hint: $(head -n 3 "$name.err")"
	[ -e "$TEST_TMP/$name" ] && fail "$name: make built something in $TEST_TMP/$name"
	grep -q 'No such file or directory' "$name.err" && fail "$name: the compiler ran: $(head -n 3 "$name.err")"
	return 0
}

build no-pkg-config PKG_CONFIG=false
grep -q '^tephra: cannot build: missing pkg-config (Debian packages)$' no-pkg-config.err ||
	fail "no-pkg-config: $(head -n 2 no-pkg-config.err)"

cat > pkg-config <<'PC'
#!/bin/sh
# every module but libdeflate
for a in "$@"; do [ "$a" = libdeflate ] && exit 1; done
exec pkg-config "$@"
PC
chmod +x pkg-config
build no-libdeflate PKG_CONFIG="$TEST_TMP/pkg-config"
grep -q '^tephra: cannot build: missing libdeflate-dev (Debian packages)$' no-libdeflate.err ||
	fail "no-libdeflate: $(head -n 2 no-libdeflate.err)"

cat > cc <<'CC'
#!/bin/sh
# a compiler whose include path has no libiberty
if [ "$1" = -E ]; then
	in=$(cat); case $in in *libiberty/demangle.h*) exit 1;; esac
	printf '%s\n' "$in" | exec cc "$@"
fi
exec cc "$@"
CC
chmod +x cc
build no-libiberty CC="$TEST_TMP/cc"
grep -q '^tephra: cannot build: missing libiberty-dev (Debian packages)$' no-libiberty.err ||
	fail "no-libiberty: $(head -n 2 no-libiberty.err)"

# and with everything there, the check says nothing (make -n: nothing is built)
make -C "$TOP" --no-print-directory -n BUILD="$TEST_TMP/all-there" > /dev/null 2> all.err ||
	fail "make -n with every package: $(head -n 3 all.err)"
grep -q 'cannot build' all.err && fail "a complaint with every package there: $(head -n 2 all.err)"
echo ok
