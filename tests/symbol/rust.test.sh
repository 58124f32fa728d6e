#!/usr/bin/env bash
# Rust symbols in both manglings: legacy (_ZN...17h<hash>E, perf drops the hash) and
# v0 (_R...).  Stable rustc wants -Z unstable-options for legacy mangling, which
# RUSTC_BOOTSTRAP=1 allows.
. "$TOP/tests/symbol/lib.sh"
need_perf
RUSTC=$(command -v rustc || echo "$HOME/.cargo/bin/rustc")
[ -x "$RUSTC" ] || skip "rustc not installed"
cd "$TEST_TMP"
for m in legacy v0; do
	extra=()
	[ $m = legacy ] && extra=(-Z unstable-options)
	RUSTC_BOOTSTRAP=1 "$RUSTC" -O -g -C force-frame-pointers=yes "${extra[@]}" \
		-C symbol-mangling-version=$m -o rust_$m "$PROGS/rust_prog.rs" 2>rustc.err ||
		{ cat rustc.err
		  # Only a rustc without the option is a reason to skip; any other error is ours.
		  grep -q 'symbol-mangling-version' rustc.err && skip "$("$RUSTC" --version) lacks $m mangling"
		  fail "$("$RUSTC" --version) cannot build $PROGS/rust_prog.rs"; }
	record rust_$m.data ./rust_$m 300
	compare rust_$m.data
	expect_line rust_$m.data "rust_prog::shapes::(total|Area)[^ ]*\+0x"
done
