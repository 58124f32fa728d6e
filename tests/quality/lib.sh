# lib.sh - shared by the tests/quality/*.test.sh stack-quality tests (sourced, not run).
# They record small workloads with the machine's perf, then check the numbers of
# tephra's stack-quality report against counts the test makes itself from `perf script`
# output (samples = header lines, frames = callchain lines, [unknown] frames = lines
# whose symbol is "[unknown]").
set -u
: "${TEPHRA:?}" "${TOP:?}" "${TEST_TMP:?}"
export LC_ALL=C
. "$TOP/tests/skips.sh"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
finish() { [ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }; exit 0; }

# keep_recording WHAT FILE...: after a failed check, copies FILE... (the recording and the
# texts compared) to a directory it prints (under build/kept, or TEPHRA_KEEP_DIR), so a
# rare failure can be diagnosed from its own recording: TEST_TMP is removed when the
# test ends.
keep_recording() {
	local what=$1 dir; shift
	dir=${TEPHRA_KEEP_DIR:-$TOP/build/kept}/$what.$(date -u +%Y%m%dT%H%M%S).$$
	mkdir -p "$dir" && cp -p "$@" "$dir/" 2>/dev/null
	echo "kept the recording of this failure in $dir ($(cd "$dir" && echo *))"
}

need_perf() {
	need_tool cc
	need_perf_record --call-graph dwarf
}

# record OUT PERF-RECORD-ARGS... -- COMMAND...
record() {
	local out=$1; shift
	perf record -q -N -o "$out" "$@" >"$TEST_TMP/record.log" 2>&1 || {
		echo "perf record $* failed:"; cat "$TEST_TMP/record.log"; exit 1; }
}

# worker_rooted FOLDED: the samples of folded stacks in which a frame of
# tests/workloads/threads.c (worker, spin_a, spin_b) lies above start_thread.  Without
# frame pointers there must be none; a stack may still hold start_thread itself: a
# sample taken while start_thread runs (its sigprocmask and exit system calls, at a
# thread's start and end) has it as the leaf, and exec's kernel frames hold the
# kernel's own start_thread.
worker_rooted() {
	awk '{ line = $0; sub(/ [0-9]+$/, "", line); n = split(line, f, ";"); w = $NF; root = 0
		for (i = 1; i <= n; i++) {
			if (f[i] == "start_thread") root = 1
			else if (root && f[i] ~ /^(worker|spin_a|spin_b)$/) { s += w; break } }
		} END { print s + 0 }' "$1"
}

# perf_counts DATA: "SAMPLES FRAMES UNKNOWN MARKERS CUT" from perf script's text.
# MARKERS: the "ffffffffffffffff [unknown] ([unknown])" lines perf 6.1 prints as the last
# frame of a user stack its unwinder could not finish for want of stack (tephra does not
# print them); CUT: samples ending with one.
perf_counts() {
	perf script -i "$1" 2>/dev/null | awk '
		/^\t/ { n++; last = $1; if ($2 == "[unknown]") u++; if ($1 == "ffffffffffffffff") m++; next }
		/^$/ { if (last == "ffffffffffffffff") cut++; last = ""; next }
		{ s++ }
		END { if (last == "ffffffffffffffff") cut++; print s + 0, n + 0, u + 0, m + 0, cut + 0 }'
}

# field FILE REGEX: the first number after REGEX on the first line matching it.
field() {
	sed -n "s/.*$2 *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1
}

# fp_expect DATA [MAX_STACK]: the lines tephra's frame-pointer block must print for DATA,
# made from `perf script -F ip,sym,dso` text (one event; MAX_STACK: the reader's
# --max-stack, 127 when not given: each stack's frames past it are dropped here).  A frame is the kernel's when its address is in the
# kernel half (16 hex digits from ffff8); a user stack reaches a thread root when its
# outermost frame is a user frame named one of ROOTS; the chain breaks at the first
# user frame perf prints as "[unknown] ([unknown])" (an address in no mapping), after the
# frame before it (whose object kept no frame pointer), or else, when the stack neither
# reaches a root nor is cut at the limit (MAX_STACK frames or more, or the recording's
# 127), after its outermost frame.
fp_expect() {
	perf script -F ip,sym,dso -i "$1" 2>/dev/null | awk -v max="${2:-127}" '
	BEGIN {
		split("_start __libc_start_main __libc_start_call_main _dl_start_user start_thread clone clone3 __clone __clone3 __clone_internal thread_start runtime.goexit runtime.goexit.abi0 runtime.clone runtime.clone.abi0 runtime.mstart runtime.mstart.abi0 runtime.rt0_go runtime.rt0_go.abi0", r, " ")
		for (i in r) ROOT[r[i]] = 1
	}
	function pct(a, b) { return b ? sprintf("%.1f", 100 * a / b) : "0.0" }
	function flush(   i, first, run, longest, brk, rooted, limit) {
		if (!nf) return
		samples++
		for (i = 1; i <= nf; i++) { frames++; if (sym[i] == "[unknown]") { unknown++; unk_in[dso[i] == "[unknown]" ? "(no mapping)" : dso[i]]++ } }
		first = 0
		for (i = 1; i <= nf; i++) if (!kern[i]) { first = i; break }
		if (first) {
			user++
			rooted = !kern[nf] && (sym[nf] in ROOT)
			roots += rooted
			run = 0; longest = 0; brk = ""
			for (i = first; i <= nf; i++) {
				run = sym[i] == "[unknown]" ? run + 1 : 0
				if (run > longest) longest = run
				if (brk == "" && sym[i] == "[unknown]" && dso[i] == "[unknown]")
					brk = i > first ? dso[i - 1] : "[unknown]"
			}
			limit = nraw >= 127 || nraw > max
			if (limit) cut++
			if (brk == "" && !rooted && !limit) brk = dso[nf]
			if (brk != "") { broken++; broken_in[brk == "[unknown]" ? "(no mapping)" : brk]++ }
			if (longest >= 2) { runs++; if (longest > maxrun) maxrun = longest }
		}
		nf = nraw = 0
	}
	/^$/ { flush(); next }
	{
		if (++nraw > max) next
		nf++
		addr = $1; d = $NF; sub(/^\(/, "", d); sub(/\)$/, "", d)
		s = $0; sub(/^[ \t]*[0-9a-f]+ /, "", s); sub(/ \([^()]*\)$/, "", s)
		sym[nf] = s; dso[nf] = d
		kern[nf] = length(addr) == 16 && substr(addr, 1, 5) >= "ffff8"
	}
	END {
		flush()
		printf "samples %d\n", samples
		printf "  reach a thread root (_start, start_thread, clone...): %d of %d user stacks (%s%%)\n", roots, user, pct(roots, user)
		printf "unknown %d %d\n", unknown, frames
		for (o in unk_in) printf "unk_in %d %s\n", unk_in[o], o
		printf "  runs of [unknown] (2 or more in a row): %d of %d user stacks (%s%%)%s\n", runs, user, pct(runs, user), runs ? ", the longest " maxrun " frames" : ""
		printf "  cut at the frame limit (the kernel'"'"'s, or --max-stack): %d of %d user stacks (%s%%)\n", cut, user, pct(cut, user)
		printf "broken %d %d %s\n", broken, user, pct(broken, user)
		for (o in broken_in) printf "broken_in %d %s\n", broken_in[o], o
	}'
}

# fp_check NAME ERR EXPECT: the frame-pointer block in ERR against fp_expect's EXPECT.
fp_check() {
	local name=$1 err=$2 exp=$3 line want
	grep -q ': stack quality of .* (frame-pointer call graphs' "$err" || { fail "$name: no frame-pointer block"; return; }
	[ "$(field "$err" 'samples:')" = "$(awk '$1 == "samples" { print $2 }' "$exp")" ] ||
		fail "$name: samples: $(field "$err" 'samples:'), perf script $(awk '$1 == "samples" { print $2 }' "$exp")"
	for key in 'reach a thread root' 'runs of \[unknown\]' 'cut at the frame limit'; do
		want=$(grep "^  $key" "$exp")
		grep -qxF -- "$want" "$err" || fail "$name: '$(grep "^  $key" "$err")', perf script says '$want'"
	done
	# [unknown] frames and the objects they are in (the first three, most first)
	want=$(awk '$1 == "unknown" { printf "  [unknown] frames: %d of %d (%.1f%%)", $2, $3, $3 ? 100 * $2 / $3 : 0 }' "$exp")
	want+=$(awk '$1 == "unk_in" { $1 = ""; n = $2; $2 = ""; sub(/^  /, ""); print n "\t" $0 }' "$exp" |
		sort -t "$(printf '\t')" -k1,1nr -k2,2 | awk -F '\t' 'NR <= 3 { printf "%s%s %d", NR == 1 ? ": " : ", ", $2, $1 } END { if (NR > 3) printf " (and %d more)", NR - 3 }')
	grep -qxF -- "$want" "$err" || fail "$name: '$(grep '^  \[unknown\] frames' "$err")', perf script says '$want'"
	# broken chains and the objects before the break
	want=$(awk '$1 == "broken" { printf "  chain broken after a frame in: %d of %d user stacks (%s%%)", $2, $3, $4 }' "$exp")
	want+=$(awk '$1 == "broken_in" { n = $2; $1 = ""; $2 = ""; sub(/^  /, ""); print n "\t" $0 }' "$exp" |
		sort -t "$(printf '\t')" -k1,1nr -k2,2 | awk -F '\t' 'NR <= 3 { printf "%s%s %d", NR == 1 ? ": " : ", ", $2, $1 } END { if (NR > 3) printf " (and %d more)", NR - 3 }')
	grep -qxF -- "$want" "$err" || fail "$name: '$(grep '^  chain broken' "$err")', perf script says '$want'"
}
