#!/usr/bin/env bash
# The stack-quality block tells the truth about roots and lost samples:
#  1. a C program recorded from its start (--call-graph dwarf): walks that end at ld.so's
#     `_start` (the entry point, which has no CFI: the kernel jumps there) are complete,
#     and no object is blamed for missing CFI; the complete walks and the stacks that
#     reach a thread root are as many as perf script's stacks whose outermost frame is a
#     thread root;
#  2. a Go program: its stacks end at runtime.goexit (the goroutine's start) and count
#     as reaching a root: at least every sample perf script puts in the program's own
#     main.* code (perf 6.1 unwinds Go no further than the first frame, so only the leaf
#     is perf's);
#  3. lost samples are counted once: a recording in which every sample of one event
#     cannot fit the buffer (a 65528-byte stack dump into 8 KB) loses exactly those, and
#     perf record says how many it processed and lost; perf writes them twice (LOST
#     records as they happen, LOST_SAMPLES at the end), tephra counts them once.
#  5. a walk that ends because a register was lost in a slot below sp (an epilogue whose
#     CFI still has popped registers saved) is not complete (see below).
. "$TOP/tests/quality/lib.sh"
need_perf
command -v python3 >/dev/null || skip "python3 is not installed"

ROOTS="_start __libc_start_main __libc_start_call_main _dl_start_user start_thread clone clone3 __clone __clone3 __clone_internal thread_start"

# 1. C from the start: ld.so's start-up runs (its page faults alone take far more than
# the 50 us period), so some stacks end in ld.so's _start
cc -O2 -g -o "$TEST_TMP/recurse" "$TOP/tests/workloads/recurse.c" || exit 1
record "$TEST_TMP/c.data" -e cpu-clock -c 50000 --call-graph dwarf -- "$TEST_TMP/recurse" 40
perf script -F ip,sym,dso -i "$TEST_TMP/c.data" 2>/dev/null >"$TEST_TMP/c.perf"
# per stack its outermost frame: "SYM DSO"; a stack of kernel frames only is not a user stack
awk -v roots="$ROOTS" 'BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) R[r[i]] = 1 }
	function flush() { if (last != "" && !kern) { user++; if (sym in R) rooted++
		if (sym == "_start" && dso ~ /ld-linux/) ldso++ } last = "" }
	/^$/ { flush(); next }
	{ last = $1; kern = length($1) == 16 && substr($1, 1, 5) >= "ffff8"
	  sym = $2; dso = $NF }
	END { flush(); print user + 0, rooted + 0, ldso + 0 }' "$TEST_TMP/c.perf" >"$TEST_TMP/c.counts"
read -r user rooted ldso <"$TEST_TMP/c.counts"
echo "perf script: $user user stacks, $rooted end at a thread root, $ldso at ld.so's _start"
[ "$ldso" -gt 0 ] || fail "premise: no stack of perf script ends at ld.so's _start"
"$TEPHRA" stat "$TEST_TMP/c.data" >"$TEST_TMP/c.stat" 2>"$TEST_TMP/c.stat.err" || fail "tephra stat failed: $(head -n 3 "$TEST_TMP/c.stat.err")"
sed -n '/^stack quality:/,$p' "$TEST_TMP/c.stat"
got_rooted=$(sed -n 's/^  reach a thread root ([^)]*): \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$TEST_TMP/c.stat")
[ "$got_rooted" = "$rooted $user" ] || fail "reach a thread root: tephra '$got_rooted', perf script '$rooted $user'"
complete=$(awk '$1 == "complete" { print $2 }' "$TEST_TMP/c.stat")
[ "$complete" = "$rooted" ] || fail "complete walks: tephra $complete, perf script's stacks ending at a root $rooted"
grep -q 'no CFI' "$TEST_TMP/c.stat" && fail "tephra stat blames missing CFI: $(grep 'no CFI' "$TEST_TMP/c.stat" | head -n 2)"
"$TEPHRA" fold "$TEST_TMP/c.data" >/dev/null 2>"$TEST_TMP/c.fold.err" || fail "tephra fold failed"
grep -q 'no CFI' "$TEST_TMP/c.fold.err" && fail "tephra fold's block blames missing CFI"
grep -qF "reach a thread root (_start, start_thread, clone...): $rooted of $user " "$TEST_TMP/c.fold.err" ||
	fail "tephra fold's block: '$(grep 'reach a thread root' "$TEST_TMP/c.fold.err")', perf script $rooted of $user"
[ "$failures" -eq 0 ] || keep_recording roots-lost.c "$TEST_TMP/c.data" "$TEST_TMP/c.perf" "$TEST_TMP/c.stat" "$TEST_TMP/c.fold.err"

# 2. Go: a sample every 250 us of CPU time, 300 ms of it: ~1200 samples, most in main.*
if command -v go >/dev/null 2>&1; then
	GOCACHE=$TEST_TMP/gocache GOPATH=$TEST_TMP/gopath GO111MODULE=off GOFLAGS= \
		go build -o "$TEST_TMP/gowork" "$TOP/tests/workloads/gowork.go" >"$TEST_TMP/go.log" 2>&1 ||
		{ cat "$TEST_TMP/go.log"; fail "go build failed"; }
	record "$TEST_TMP/go.data" --call-graph dwarf -e cpu-clock -c 250000 -- "$TEST_TMP/gowork" 300
	in_main=$(perf script -F ip,sym -i "$TEST_TMP/go.data" 2>/dev/null |
		awk 'BEGIN { first = 1 } /^$/ { first = 1; next } first { first = 0; if ($2 ~ /^main\./) n++ } END { print n + 0 }')
	"$TEPHRA" stat "$TEST_TMP/go.data" >"$TEST_TMP/go.stat" || fail "tephra stat failed on Go"
	read -r got_go go_user <<<"$(sed -n 's/^  reach a thread root ([^)]*): \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$TEST_TMP/go.stat")"
	echo "Go: perf script puts $in_main samples in main.*; tephra: ${got_go:-?} of ${go_user:-?} reach a root"
	[ "$in_main" -gt 100 ] || fail "premise: only $in_main Go samples in main.*"
	[ "${got_go:-0}" -ge "$in_main" ] || { fail "Go: ${got_go:-0} stacks reach a root, fewer than the $in_main in main.*"
		keep_recording roots-lost.go "$TEST_TMP/go.data" "$TEST_TMP/go.stat"; }
else
	echo "note: go is not installed (Debian: golang-go): the Go part is skipped"
fi

# 4. a stripped program (Debian ships its programs so: /usr/bin/xz) has no name for its
# _start: a DWARF walk ends "[unknown] (PROGRAM)" at the entry point readelf gives, one
# frame past libc's __libc_start_main (a dynamic symbol, "__libc_start_main@@GLIBC_2.34"
# as perf names it without its inline chain).  Such stacks reach a thread root as
# much as those ending at a named _start (they counted for none: 0 of 11889 for xz).
cc -O2 -g -o "$TEST_TMP/unstripped" "$TOP/tests/workloads/recurse.c" || exit 1
strip -o "$TEST_TMP/stripped" "$TEST_TMP/unstripped" || exit 1
record "$TEST_TMP/s.data" -e cpu-clock -c 250000 --call-graph dwarf -- "$TEST_TMP/stripped" 200
perf script -F ip,sym,dso -i "$TEST_TMP/s.data" 2>/dev/null >"$TEST_TMP/s.perf"
entry=$(readelf -h "$TEST_TMP/stripped" | awk '/Entry point address/ { print $NF }')
read -r user rooted at_entry <<<"$(python3 - "$TEST_TMP/s.perf" "$entry" "$TEST_TMP/stripped" "$ROOTS" <<'PY'
import sys
text, entry, prog, roots = open(sys.argv[1]).read(), int(sys.argv[2], 16), sys.argv[3], set(sys.argv[4].split())
user = rooted = at_entry = 0
for block in text.split("\n\n"):
    lines = [l.split() for l in block.strip().split("\n") if l.strip()]
    if not lines or len(lines[-1][0]) == 16 and lines[-1][0] >= "ffff8":
        continue # kernel frames only
    user += 1
    ip, sym, dso = lines[-1][0], lines[-1][1], lines[-1][-1]
    if sym in roots:
        rooted += 1
    # the call in _start: within its first 64 bytes
    elif sym == "[unknown]" and dso == "(%s)" % prog and 0 <= int(ip, 16) - entry < 64 and \
            len(lines) >= 2 and lines[-2][1].startswith("__libc_start_"):
        at_entry += 1
print(user, rooted, at_entry)
PY
)"
echo "stripped: perf script: $user user stacks, $rooted end at a named root, $at_entry at the unnamed entry point ($entry)"
[ "${at_entry:-0}" -gt 0 ] || fail "premise: no stack of the stripped program ends at its entry point"
"$TEPHRA" stat "$TEST_TMP/s.data" >"$TEST_TMP/s.stat" 2>&1 || fail "tephra stat failed on the stripped program"
got=$(sed -n 's/^  reach a thread root ([^)]*): \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' "$TEST_TMP/s.stat")
[ "$got" = "$((rooted + at_entry)) $user" ] || {
	fail "stripped: reach a thread root: tephra '$got', perf script $rooted + $at_entry of $user"
	keep_recording roots-lost.stripped "$TEST_TMP/s.data" "$TEST_TMP/s.perf" "$TEST_TMP/s.stat"; }

# 5. a frame whose CFI keeps a popped register saved in its slot, now below sp (glibc
# 2.36's msort_with_tmp in its tail jump to memcpy: case 1 failed once so, 824 complete
# walks for 823 stacks of perf's at a root, the extra one ending in qsort_r): the kernel's
# copy starts at sp, so the walk loses rbp, and the caller's CFA (rbp + 16) with it.
# libdwfl ends such a walk as at an outermost frame; it is no complete walk.  popped.c
# spends its time there, so the case is certain: perf script's stacks end in main.
if [ "$(uname -m)" = x86_64 ]; then
	cc -O2 -g -fno-omit-frame-pointer -I"$TOP/tests/workloads" -o "$TEST_TMP/popped" \
		"$TOP/tests/workloads/popped.c" || exit 1
	record "$TEST_TMP/p.data" -e cpu-clock -c 250000 --call-graph dwarf -- "$TEST_TMP/popped" 100
	perf script -F ip,sym,dso -i "$TEST_TMP/p.data" 2>/dev/null >"$TEST_TMP/p.perf"
	# per user stack: is its outermost frame a root; does it go from popped_spin to main
	read -r user rooted cut <<<"$(awk -v roots="$ROOTS" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) R[r[i]] = 1 }
		function flush() { if (last != "" && !kern) { user++; if (sym in R) rooted++
			if (leaf == "popped_spin" && sym == "main") cut++ } last = leaf = "" }
		/^$/ { flush(); next }
		{ if (last == "") leaf = $2
		  last = $1; kern = length($1) == 16 && substr($1, 1, 5) >= "ffff8"; sym = $2 }
		END { flush(); print user + 0, rooted + 0, cut + 0 }' "$TEST_TMP/p.perf")"
	echo "popped: perf script: $user user stacks, $rooted end at a thread root, $cut from popped_spin end in main"
	[ "$cut" -gt 50 ] || fail "premise: only $cut of perf script's stacks go from popped_spin to main, no further"
	"$TEPHRA" stat "$TEST_TMP/p.data" >"$TEST_TMP/p.stat" 2>&1 || fail "tephra stat failed on popped"
	complete=$(awk '$1 == "complete" { print $2 }' "$TEST_TMP/p.stat")
	[ "${complete:-0}" = "$rooted" ] || {
		fail "popped: complete walks: tephra ${complete:-0}, perf script's stacks ending at a root $rooted"
		keep_recording roots-lost.popped "$TEST_TMP/p.data" "$TEST_TMP/p.perf" "$TEST_TMP/p.stat"; }
else
	echo "note: not x86_64: the popped-register part is skipped (its workload is x86_64 assembly)"
fi

# 3. lost samples, once: cpu-clock's frame-pointer samples fit the 8 KB buffer, every
# task-clock sample (a 65528-byte stack dump) cannot
cc -O2 -o "$TEST_TMP/spin" "$TOP/tests/workloads/recurse.c" || exit 1
perf record -N -o "$TEST_TMP/lost.data" -e 'cpu-clock/call-graph=fp/' \
	-e 'task-clock/call-graph=dwarf,stack-size=65528/' -F 2000 -m 2 -- "$TEST_TMP/spin" 200 \
	>"$TEST_TMP/lost.rec" 2>&1 || { cat "$TEST_TMP/lost.rec"; fail "perf record failed"; finish; }
# perf record: "Processed N samples and lost P%!"
read -r processed pct <<<"$(sed -n 's/.*Processed \([0-9]*\) samples and lost \([0-9.]*\)%.*/\1 \2/p' "$TEST_TMP/lost.rec")"
kept=$(perf script -i "$TEST_TMP/lost.data" -F period 2>/dev/null | wc -l)
[ -n "${processed:-}" ] || fail "premise: perf record did not say it lost samples: $(tail -n 3 "$TEST_TMP/lost.rec")"
lost=$((${processed:-0} - kept))
python3 -c "import sys; p, k, pc = map(float, sys.argv[1:]); sys.exit(abs(100 * (p - k) / p - pc) > 0.01)" \
	"${processed:-1}" "$kept" "${pct:-0}" || fail "premise: perf record's $processed processed, $pct% lost, but perf script has $kept"
echo "perf record: $processed samples processed, $pct% lost; perf script: $kept kept, so $lost lost"
[ "$lost" -gt 0 ] || fail "premise: no sample lost"
"$TEPHRA" fold "$TEST_TMP/lost.data" >/dev/null 2>"$TEST_TMP/lost.err" || fail "tephra fold failed"
grep -qE "^  samples: $kept, lost: $lost( |\$)" "$TEST_TMP/lost.err" ||
	fail "tephra fold's block: '$(grep '  samples:' "$TEST_TMP/lost.err")', perf: samples $kept, lost $lost"
"$TEPHRA" stat "$TEST_TMP/lost.data" >"$TEST_TMP/lost.stat" || fail "tephra stat failed"
grep -qx "samples lost: $lost (the two lines above count the same samples)" "$TEST_TMP/lost.stat" ||
	fail "tephra stat: '$(grep -i 'lost' "$TEST_TMP/lost.stat" | tr '\n' '|')', perf lost $lost"
grep -qE "^  samples: $kept, lost: $lost( |\$)" "$TEST_TMP/lost.stat" ||
	fail "tephra stat's block: '$(grep '  samples:' "$TEST_TMP/lost.stat")', perf: samples $kept, lost $lost"
finish
