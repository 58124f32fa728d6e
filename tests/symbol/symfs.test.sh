#!/usr/bin/env bash
# Symbols from elsewhere (README "Symbols from elsewhere", docs/symbols.md): a program
# recorded here (frame pointers, and --call-graph dwarf), then moved away so that its
# recorded path no longer exists.  The oracle is what perf script printed before the
# move.  Without options its frames are [unknown]; with --symfs DIR (and DIR,flat) holding
# the objects, or with the `perf archive` tarball unpacked into a --buildid-dir or into
# ~/.debug, tephra prints what perf printed.  --kallsyms names kernel frames under a symfs
# (where perf reads no local kernel file) from the file given; a symfs file with another
# build-id is refused with one warning; bad places are one clear error.
. "$TOP/tests/symbol/lib.sh"
need_perf
command -v tar >/dev/null && command -v bzip2 >/dev/null || skip "tar or bzip2 missing (perf archive)"
cd "$TEST_TMP"
export LC_ALL=C
# perf record caches into REC's ~/.debug (perf archive reads it there); tephra runs with a
# HOME of its own whose ~/.debug starts empty, so nothing is named from a cache by chance.
REC=$TEST_TMP/rec-home
export HOME=$TEST_TMP/home
mkdir -p "$REC" "$HOME" app
PROG=$TEST_TMP/app/prog
cat >prog.c <<'EOF'
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
static volatile unsigned long sink;
__attribute__((noinline)) void spin_leaf(long n) { for (long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void spin_mid(long n) { spin_leaf(n); sink ^= 1; }
__attribute__((noinline)) void ask_kernel(long n) { for (long i = 0; i < n; i++) sink += syscall(SYS_getppid); }
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	for (long r = 0; r < rounds; r++) {
		spin_mid(200000);
		ask_kernel(2000);
	}
	return 0;
}
EOF
gcc -O1 -g -fno-omit-frame-pointer -o "$PROG" prog.c || fail "build"
echo 'int main(void) { return 0; }' >other.c
gcc -O1 -o other other.c || fail "build other"

rec() {
	local out=$1; shift
	HOME=$REC perf record -q -e cpu-clock -F 4000 "$@" -o "$out" -- "$PROG" 100 >record.out 2>&1 ||
		{ cat record.out; fail "perf record $*"; }
}
rec fp.data -g
rec dw.data --call-graph dwarf
for d in fp dw; do
	HOME=$REC perf script -i $d.data >$d.perf 2>/dev/null || fail "perf script -i $d.data"
	grep -Eq "spin_leaf\+0x[0-9a-f]+ \($PROG\)$" $d.perf || fail "$d: perf named no frame of the program"
	grep -Eq "[^]] \(\[kernel\.kallsyms\]\)$" $d.perf || fail "$d: perf named no kernel frame"
done
# the other commands' output before the move (the objects where they were recorded)
others() { # SUFFIX [OPTIONS...]
	local s=$1; shift
	"$TEPHRA" fold -q "$@" fp.data >fold.$s || fail "fold $*"
	"$TEPHRA" flamegraph -q "$@" fp.data -o flame.$s.svg || fail "flamegraph $*"
	"$TEPHRA" report -n 0 "$@" fp.data >report.$s || fail "report $*"
	"$TEPHRA" export -f callgrind -o export.$s "$@" fp.data || fail "export $*"
	"$TEPHRA" heatmap -o heat.$s.html "$@" fp.data || fail "heatmap $*"
}
same_others() { # SUFFIX: the same as before the move
	cmp -s fold.before fold.$1 || fail "fold $1 differs from before the move"
	cmp -s flame.before.svg flame.$1.svg || fail "flamegraph $1 differs from before the move"
	cmp -s report.before report.$1 || fail "report $1 differs from before the move"
	cmp -s export.before export.$1 || fail "export $1 differs from before the move"
	cmp -s heat.before.html heat.$1.html || fail "heatmap $1 differs from before the move"
}
others before
grep -q "spin_leaf" fold.before || fail "tephra fold named no frame of the program"
{ perf buildid-list -i fp.data && perf buildid-list -i dw.data; } 2>/dev/null | sort -u >bids ||
	fail "perf buildid-list"
# both recordings hit the same objects: one archive serves both
HOME=$REC perf archive dw.data >archive.out 2>&1 || { cat archive.out; fail "perf archive dw.data"; }

mv "$PROG" app/prog.moved
[ ! -e "$PROG" ] || fail "the program is still there"

# own_lines FILE: the program's frames
own_lines() { grep -E "\($PROG\)$" "$1"; }
# 1. No options: the program's frames are unnamed.
for d in fp dw; do
	"$TEPHRA" script -q -i $d.data >$d.none || fail "tephra script $d.data"
	own_lines $d.none >own || fail "$d: no frame of the program at all"
	! grep -v '\[unknown\]' own || fail "$d: a frame of the moved program was named without options"
done

# 2. --symfs DIR and DIR,flat: every user object perf saw, with its debug file from the
# archive (where perf record found one) where the symfs's debug directory has it.
mkdir -p unpacked && tar xjf dw.data.tar.bz2 -C unpacked ||
	fail "unpacking perf archive's tarballs"
while read -r bid path; do
	case $path in /*) ;; *) continue ;; esac
	src=$path
	[ "$path" = "$PROG" ] && src=$TEST_TMP/app/prog.moved
	[ -f "$src" ] || fail "$path: not here"
	for root in symfs flat; do
		dest=$root$path
		[ $root = flat ] && dest=flat/$(basename "$path")
		mkdir -p "$(dirname "$dest")" "$root/usr/lib/debug/.build-id/${bid:0:2}"
		cp "$src" "$dest"
		dbg=unpacked/.build-id/${bid:0:2}/${bid:2}/debug
		[ -f "$dbg" ] && cp "$dbg" "$root/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
	done
done <bids
cp /proc/kallsyms kallsyms.copy
awk '$1 !~ /^0+$/ { found = 1 } END { exit !found }' kallsyms.copy ||
	skip "/proc/kallsyms shows no addresses here (kptr_restrict)"
for d in fp dw; do
	for root in symfs flat,flat; do
		"$TEPHRA" script -q --symfs "$root" --kallsyms kallsyms.copy -i $d.data >$d.got ||
			fail "tephra script --symfs $root $d.data"
		cmp -s $d.perf $d.got || { diff $d.perf $d.got | head; fail "$d: --symfs $root: not perf's text"; }
	done
	# without --kallsyms: the program named, the kernel not (perf reads no local
	# kernel file under a symfs)
	"$TEPHRA" script -q --symfs symfs -i $d.data >$d.got || fail "tephra script --symfs"
	own_lines $d.perf >want
	own_lines $d.got >got
	cmp -s want got || fail "$d: --symfs without --kallsyms: the program's frames are not perf's"
	! grep -E "[^]] \(\[kernel\.kallsyms\]\)$" $d.got || fail "$d: kernel named under --symfs"
done
others symfs --symfs symfs --kallsyms kallsyms.copy
same_others symfs

# 3. --kallsyms FILE is what names the kernel: every name of a marked copy comes out.
sed 's/^\([0-9a-f]* [a-zA-Z] \)/\1k_/' /proc/kallsyms >kallsyms.marked
"$TEPHRA" script -q --symfs symfs --kallsyms kallsyms.marked -i fp.data >fp.got || fail "marked"
grep -E "\(\[kernel\.kallsyms\]\)$" fp.perf | sed -E 's/^([[:space:]]+[0-9a-f]+ )([^[])/\1k_\2/' >want
grep -E "\(\[kernel\.kallsyms\]\)$" fp.got >got
cmp -s want got || fail "--kallsyms: kernel frames not named from the file given"

# 4. perf archive: unpacked into a --buildid-dir, then into ~/.debug (the default).
for d in fp dw; do
	"$TEPHRA" script -q --buildid-dir unpacked -i $d.data >$d.got || fail "--buildid-dir"
	cmp -s $d.perf $d.got || { diff $d.perf $d.got | head; fail "$d: --buildid-dir: not perf's text"; }
done
others archive --buildid-dir unpacked
same_others archive
mkdir -p "$HOME/.debug" && tar xjf dw.data.tar.bz2 -C "$HOME/.debug" || fail "unpacking into ~/.debug"
"$TEPHRA" script -q -i fp.data >fp.got || fail "~/.debug"
cmp -s fp.perf fp.got || fail "fp: perf archive in ~/.debug: not perf's text"
rm -rf "$HOME/.debug"

# 5. A symfs file with another build-id: refused, with one warning however many frames.
mkdir -p "wrong$(dirname "$PROG")"
cp other "wrong$PROG"
for cmd in script fold; do
	"$TEPHRA" $cmd -q --symfs wrong fp.data >out 2>err || fail "$cmd --symfs wrong: exit status"
	[ "$(grep -c "warning: wrong$PROG: not the recorded $PROG" err)" = 1 ] ||
		{ cat err; fail "$cmd --symfs wrong: not one warning"; }
	! grep -q spin_leaf out || fail "$cmd: a file with another build-id was used"
done

# 6. Bad places: one clear error, exit status 1, before any output.
: >empty
printf 'garbage\nnot kallsyms at all\n' >garbage
bad() { # WHAT-THE-ERROR-SAYS OPTIONS...
	local want=$1; shift
	for cmd in script fold report; do
		"$TEPHRA" $cmd "$@" fp.data >out 2>err
		rc=$?
		[ $rc = 1 ] || fail "$cmd $*: exit status $rc, not 1"
		[ ! -s out ] || fail "$cmd $*: printed output"
		[ "$(wc -l <err)" = 1 ] && grep -q -- "$want" err || { cat err; fail "$cmd $*: not one clear error"; }
	done
}
bad "--symfs prog.c: not a directory" --symfs prog.c
bad "--symfs nowhere: No such file or directory" --symfs nowhere
bad "--buildid-dir nowhere: No such file or directory" --buildid-dir nowhere
bad "--buildid-dir unpacked with --symfs symfs" --buildid-dir unpacked --symfs symfs
bad "--kallsyms empty: no kernel symbol in it" --kallsyms empty
bad "--kallsyms garbage: no kernel symbol in it" --kallsyms garbage
bad "--kallsyms nowhere: No such file or directory" --kallsyms nowhere
bad "--kallsyms symfs: a directory" --kallsyms symfs
echo ok
