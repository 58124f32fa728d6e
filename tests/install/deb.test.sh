#!/usr/bin/env bash
# The Debian packages: `make deb` (dpkg-buildpackage -b -us -uc on a copy of the
# sources) builds tephra, libtephra0 and libtephra-dev .debs of the VERSION file's
# version; tephra depends on the libraries it links, linux-perf, qemu-user and exactly
# the Valgrind version its tool was built against; lintian reports no error.  The
# packages' contents, unpacked with dpkg -x into a directory (valgrind's own files
# reached through a link, as they are in a real root), run grind and emu from there,
# and a C program builds against them through their tephra.pc.
. "$TOP/tests/install/lib.sh"
for c in dpkg-buildpackage dh lintian; do
	command -v $c >/dev/null || fail "$c is not installed (scripts/install-deps test: dpkg-dev debhelper lintian)"
done
command -v valgrind >/dev/null && command -v qemu-riscv64 >/dev/null || fail "valgrind and qemu-user are needed"

cl=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)
[ "$cl" = "$VERSION" ] || fail "debian/changelog is at $cl, VERSION at $VERSION"

make -s -C "$TOP" deb DEB_DIR="$TEST_TMP/deb" >build.log 2>&1 || { tail -n 40 build.log; fail "make deb"; }
arch=$(dpkg --print-architecture)
for p in tephra libtephra0 libtephra-dev; do
	[ -f "deb/${p}_${VERSION}_$arch.deb" ] || { ls deb; fail "no ${p}_${VERSION}_$arch.deb"; }
done
TDEB=deb/tephra_${VERSION}_$arch.deb

# Depends: the run-time libraries (from dpkg-shlibdeps), the tools tephra runs, and a
# Valgrind range that holds the installed version and no other upstream version.
dep=$(dpkg-deb -f "$TDEB" Depends)
echo "Depends: $dep"
for p in libc6 libdw1 libelf1 libzstd1 libdeflate0 linux-perf qemu-user; do
	grep -Eq "(^|, )$p( |,|$)" <<<"$dep" || fail "tephra does not depend on $p"
done
vg_have=$(dpkg-query -W -f='${Version}' valgrind)
vg_up=$(valgrind --version | sed 's/^valgrind-//')
ok_all() { # version: whether every valgrind constraint of Depends admits it
	local v=$1 c
	while read -r c; do
		dpkg --compare-versions "$v" "${c%% *}" "${c#* }" || return 1
	done < <(grep -o 'valgrind ([^)]*)' <<<"$dep" | sed 's/valgrind (\(.*\))/\1/')
}
[ "$(grep -o 'valgrind (' <<<"$dep" | wc -l)" = 2 ] || fail "tephra's Valgrind dependency is not a range"
ok_all "$vg_have" || fail "the installed valgrind $vg_have does not satisfy $dep"
ok_all "${vg_have%%:*}:${vg_up}-9+deb12u9" || fail "a Debian revision of valgrind $vg_up is refused"
IFS=. read -r a b c <<<"$vg_up"
for other in "$a.$b.$((c + 1))" "$a.$((b + 1)).0" "$a.$b.$((c - 1))"; do
	ok_all "${vg_have%%:*}:$other-1" && fail "valgrind $other would satisfy tephra's Depends"
done

lintian --fail-on error "$TEST_TMP"/deb/*.deb >lintian.txt 2>&1; rc=$?
cat lintian.txt
[ $rc = 0 ] && ! grep -q '^E:' lintian.txt || fail "lintian reports errors"

mkdir root
for p in tephra libtephra0 libtephra-dev; do dpkg -x "deb/${p}_${VERSION}_$arch.deb" root; done
# The package's links to Valgrind's files are relative (/usr/lib/tephra/grind ->
# /usr/libexec/valgrind): give the unpacked root the installed valgrind.
for f in root/usr/lib/tephra/grind/*; do
	[ -L "$f" ] || continue
	t=$(readlink "$f")
	case $t in /*) fail "$f is an absolute link ($t)";; esac
	d=$(cd "$(dirname "$f")" && realpath -m "$t")
	mkdir -p "$(dirname "$d")"
	[ -e "$d" ] || ln -s "/${d#"$TEST_TMP"/root/}" "$d"
done
[ -e root/usr/lib/tephra/grind/default.supp ] || fail "Valgrind's default.supp is not reachable"

T=$TEST_TMP/root/usr/bin/tephra
mkdir work && cd work || exit 1
unset TEPHRA_GRIND_LIB TEPHRA_QEMU_PLUGIN
"$T" --version | head -n 1 | grep -qx "tephra $VERSION" || fail "packaged tephra --version"
. "$TOP/tests/install/installed_checks.sh"
installed_grind_emu "$T" packaged
MANPATH=$TEST_TMP/root/usr/share/man man -w tephra-grind >/dev/null 2>&1 || fail "no tephra-grind man page in the package"

export PKG_CONFIG_PATH=$TEST_TMP/root/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$TEST_TMP/root
cc -std=c11 -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags tephra) -o user \
	"$TOP/tests/install/progs/trace_user.c" $(pkg-config --libs tephra) || fail "cannot build against the packages"
LD_LIBRARY_PATH=$TEST_TMP/root/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH) ./user >out ||
	{ cat out; fail "the program built against the packages failed"; }
grep -qx "_start;main;work 10" out || fail "the program built against the packages"
echo ok
