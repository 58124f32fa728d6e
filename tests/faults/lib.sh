# tests/faults/lib.sh - shared by tests/faults/*.test.sh (sourced, not run): inputs for
# every command that writes, made once in $TEST_TMP/in, checksums of everything that
# existed before a fault, and checks that an output is whole.  The oracles: sha256sum
# of the files before (nothing pre-existing may change), XML/JSON/gzip parsers and
# go tool pprof for the formats, the device's own ENOSPC (dd) and the kernel's EROFS.
set -u
export LC_ALL=C
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
die() { echo "FAIL: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }
[ -x "$TEPHRA" ] || die "$TEPHRA not built"
cd "$TEST_TMP" || exit 1
command -v python3 >/dev/null || skip "python3 is not installed"
command -v perf >/dev/null || skip "perf is not installed"
mkdir -p tmp
export TMPDIR=$TEST_TMP/tmp

LOOP='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
HAVE_GRIND=0
command -v valgrind >/dev/null && [ -d "$TOP/build/grind/lib" ] && HAVE_GRIND=1
HAVE_EMU=0
command -v qemu-riscv64 >/dev/null && [ -f "$TOP/build/qemu/libtephra-qemu.so" ] && HAVE_EMU=1

# make_inputs: in/ holds a perf.data of a shell loop (perf's cpu-clock, callchains),
# two folded files, the committed RISC-V guest, its QEMU exec log and a raw profile.
make_inputs() {
	mkdir -p in
	printf 'main;a;b 3\nmain;c 2\n' >in/a.folded
	printf 'main;a;b 1\nmain;c 4\n' >in/b.folded
	perf record -q -e cpu-clock -F 999 -g -o in/perf.data -- sh -c "$LOOP" >/dev/null 2>&1 ||
		skip "perf record does not work here"
	[ "$(perf script -i in/perf.data 2>/dev/null | grep -c cpu-clock)" -gt 0 ] ||
		die "premise: perf.data holds no samples"
	if [ $HAVE_EMU = 1 ]; then
		cp "$TOP/fuzz/root/guest" in/guest
		env -i PATH="$PATH" qemu-riscv64 -singlestep -d exec,nochain -D in/guest.log in/guest \
			>/dev/null 2>&1 </dev/null
		grep -q '^Trace ' in/guest.log || die "premise: QEMU's log of the guest is empty"
		env -i PATH="$PATH" "$TEPHRA" emu --raw -o in/raw.folded -- in/guest >/dev/null 2>&1 </dev/null ||
			die "premise: emu --raw"
	fi
	chmod -R a-w in
}

# sums: a line per file and node under in/ and ro/ (content, type, device numbers).
sums() {
	find in ro -mindepth 1 2>/dev/null | sort | while read -r f; do
		if [ -f "$f" ]; then
			echo "$f $(sha256sum <"$f" | cut -c1-64)"
		else
			echo "$f $(stat -c '%F %t,%T' "$f")"
		fi
	done
}

# whole FILE KIND: FILE is a complete KIND (svg, html, folded, pprof, callgrind,
# speedscope, perfdata).
whole() {
	local f=$1 kind=$2
	[ -s "$f" ] || return 1
	case $kind in
	svg) python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$f" 2>/dev/null;;
	html) tail -c 200 "$f" | grep -q '</html>';;
	folded) ! grep -qvE '^[^ ].* -?[0-9]+( -?[0-9]+)?$' "$f";;
	pprof)
		gzip -t "$f" 2>/dev/null || return 1
		if command -v go >/dev/null; then
			go tool pprof -raw "$f" >/dev/null 2>&1
		fi;;
	callgrind) head -n 1 "$f" | grep -qx '# callgrind format' && tail -n 1 "$f" | grep -qE '^totals: [0-9]+$';;
	speedscope) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null;;
	perfdata) perf script -i "$f" >/dev/null 2>&1;;
	*) return 1;;
	esac
}
