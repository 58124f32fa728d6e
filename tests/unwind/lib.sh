# tests/unwind/lib.sh - shared by the tests/unwind oracle scripts (sourced).
#
# unwind_setup [dump] TOOL...
#   Sets $work (TEST_TMP, or a new directory) and $dump (build/unwind/unwind-dump);
#   with "dump", fails when it is not built.  Skips the test (exit 77) when perf or one
#   of the TOOLs is not installed.
#
# unwind_record PERF-RECORD-OPTIONS... COMMAND...
#   `perf record -q --call-graph dwarf -o $work/perf.data ...`; skips the test when
#   recording with DWARF call graphs does not work here.
#
# compare_with_perf PERF.DATA WORK
#   Runs `perf script -F tid,time,ip,dso --ns --no-inline` and build/unwind/unwind-dump
#   (plain, then ASan when built) on PERF.DATA and compares the user frames sample by
#   sample.  Returns non-zero on any difference other than the two perf 6.1 makes
#   (docs/unwind.md): at the end of the copied stack, where perf ends a sample with a
#   bogus frame 0 (ffffffffffffffff [unknown]), our stack must start with perf's frames
#   before it and either stop at the end of the copy too ("stack cut short", or "stack
#   partly copied" when the kernel copied less than asked) or have read the copy's last
#   word (which perf never reads) and so have a frame where perf has its bogus one,
#   or have ended for want of CFI or on a word outside the copy ("bad memory read")
#   with exactly perf's frames before its bogus one (both seen once in fresh roots on
#   python3: perf went on past a frame that has no CFI, ld.so's entry code (our walk is
#   complete there), or read a
#   word outside the copy as 0; we stop there);
#   and, in at most 1% of the samples, a
#   "return address" perf takes in [heap] or [stack], where our frames must equal
#   perf's up to it.  Also checks that runs with --module-budget 1
#   and with --libdwfl-only (no cached CFI rows) print the same.  Leaves
#   $WORK/ours.stats (our summary).

. "$TOP/tests/skips.sh"

# keep_recording WORK WHAT: after a failed comparison, copies WORK's perf.data with both
# sides' text (perf.txt, ours.txt, ours.stats) to a directory it prints (under build/kept,
# or TEPHRA_KEEP_DIR), so a rare failure can be diagnosed from its own recording: the
# scratch directory is removed when the test ends.
keep_recording() {
	local work=$1 what=$2 dir
	dir=${TEPHRA_KEEP_DIR:-$TOP/build/kept}/$what.$(date -u +%Y%m%dT%H%M%S).$$
	mkdir -p "$dir" && cp -p "$work/perf.data" "$dir/" &&
		cp -p "$work"/perf.txt "$work"/ours.txt "$work"/ours.stats "$dir/" 2>/dev/null
	echo "kept the recording of this failure in $dir (perf.data, perf.txt, ours.txt)"
}

unwind_setup() {
	work=${TEST_TMP:-$(mktemp -d)}
	dump=$TOP/build/unwind/unwind-dump
	if [ "${1:-}" = dump ]; then
		shift
		[ -x "$dump" ] || { echo "build/unwind/unwind-dump is not built"; exit 1; }
	fi
	local t
	for t in perf "$@"; do
		need_tool "$t" "$([ "$t" = ld.lld ] && echo 'Debian: lld')"
	done
}

unwind_record() {
	if ! perf record -q --call-graph dwarf -o "$work/perf.data" "$@" >"$work/record.log" 2>&1; then
		tail -n 3 "$work/record.log"
		echo "perf record --call-graph dwarf does not work here"
		strict_skips && exit 1
		exit 77
	fi
}

# One line per sample: "TID TIME STATUS ADDR(DSO) ...", user frames only.
unwind_normalize() {
	awk '
	/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
		if (key != "") print key, status, frames
		key = $1 " " $2; frames = ""
		status = $3; for (i = 4; i <= NF; i++) status = status "_" $i
		if (status == "") status = "-"
		next
	}
	/^\t/ { if ($2 ~ /kernel/) next; frames = frames " " $1 $2; next }
	END { if (key != "") print key, status, frames }' "$1"
}

compare_with_perf() {
	local data=$1 work=$2 status=0 bin
	perf script -i "$data" -F tid,time,ip,dso --ns --no-inline >"$work/perf.txt" 2>/dev/null || return 1
	unwind_normalize "$work/perf.txt" | awk '{ $3 = "-"; print }' >"$work/perf.norm"
	local nr_perf; nr_perf=$(wc -l <"$work/perf.norm")
	[ "$nr_perf" -ge 50 ] || { echo "only $nr_perf samples recorded"; return 1; }
	for bin in "$TOP/build/unwind/unwind-dump" "$TOP/build/asan/unwind/unwind-dump"; do
		[ -x "$bin" ] || continue
		echo "== $bin"
		"$bin" --stats "$data" >"$work/ours.txt" 2>"$work/ours.stats" || { cat "$work/ours.stats"; return 1; }
		cat "$work/ours.stats"
		unwind_normalize "$work/ours.txt" >"$work/ours.norm"
		awk '
		NR == FNR {
			key = $1 " " $2
			ourcut[key] = $3 ~ /^stack_(cut_short|partly_copied)/
			ourlast[key] = $3 ~ /read_the_last_word_of_the_dump/
			# a walk that ends in the entry code of ld.so (_start, no CFI) is
			# complete: perf goes on past it as past a frame without CFI
			ournocfi[key] = $3 ~ /^(no_CFI|complete)/
			ourbadread[key] = $3 ~ /^bad_memory_read/
			$3 = ""; ours[key] = $0; next
		}
		{ key = $1 " " $2 }
		!(key in ours) { print "sample " key ": missing from our output"; bad++; next }
		{
			n = split(ours[key], o, " ")
			nours = n - 2; nperf = NF - 3
			perf_cut = 0
			if (nperf > 0 && $NF == "ffffffffffffffff([unknown])") {
				# perf could not read a return address: it lies at or beyond the
				# last word of the copied stack
				perf_cut = 1
				cut++
				nperf--
				if (ourcut[key]) {
					if (nours < nperf) { print "sample " key ": ours " nours " frames, perf " nperf; bad++; next }
				} else if (ourlast[key]) {
					# we read it there: one frame more than perf at least
					lastword++
					if (nours <= nperf) { print "sample " key ": we read the last word of the dump but have " nours " frames, perf " nperf; bad++; next }
				} else if (ournocfi[key] || ourbadread[key]) {
					# perf went on past a frame without CFI, or needed a word
					# outside the copy below its top (where perf reads 0), and
					# could not read the next: ours stop at that frame too, with
					# the frames perf has
					if (nours != nperf) { print "sample " key ": we end (" (ournocfi[key] ? "no CFI" : "bad memory read") ") with " nours " frames, perf has " nperf " before its frame 0"; bad++; next }
					nocfi++
				} else {
					print "sample " key ": perf ends with frame 0; we neither stop at the end of the copied stack nor read its last word"
					bad++; next
				}
			} else if (ourlast[key] && !ourcut[key]) {
				print "sample " key ": we read the last word of the dump, perf did not end with frame 0"
				bad++; next
			}
			# perf 6.1 (libunwind) sometimes takes heap or stack data for a return
			# address: where the walks part at such a frame, perf is wrong (no code
			# runs there in these programs); ours must agree with every frame before
			for (i = 1; i <= nperf && i <= nours && o[i + 2] == $(i + 3); i++)
				;
			if (i <= nperf && $(i + 3) ~ /\(\[(heap|stack)\]\)$/) {
				print "sample " key " frame " i - 1 ": perf " $(i + 3) " is no code, ours " o[i + 2] " (perf is wrong here)"
				bogus++; next
			}
			if (!perf_cut && nours != nperf) {
				print "sample " key ": ours " nours " frames, perf " nperf
				print "  ours:" ours[key]; print "  perf:" $0; bad++; next
			}
			for (i = 1; i <= nperf; i++)
				if (o[i + 2] != $(i + 3)) {
					print "sample " key " frame " i - 1 ": ours " o[i + 2] ", perf " $(i + 3)
					bad++; next
				}
			same++
		}
		END {
			printf "%d samples agree (%d of them cut short in perf, %d of those with a return address in the last word of the dump, %d where we end for want of CFI or on an unreadable word), %d where perf returns into data, %d differ\n", same, cut, lastword, nocfi, bogus, bad
			exit (bad > 0 || same == 0 || bogus > same / 100)
		}' "$work/ours.norm" "$work/perf.norm" || status=1
		"$bin" --module-budget 1 "$data" >"$work/ours-evicting.txt" 2>/dev/null
		cmp -s "$work/ours.txt" "$work/ours-evicting.txt" ||
			{ echo "--module-budget 1 changed the output"; status=1; }
		# the fast path (cached CFI rows) must give what libdwfl's unwinder gives
		"$bin" --libdwfl-only "$data" >"$work/ours-libdwfl.txt" 2>/dev/null
		cmp -s "$work/ours.txt" "$work/ours-libdwfl.txt" ||
			{ echo "--libdwfl-only changed the output:"; diff "$work/ours-libdwfl.txt" "$work/ours.txt" | head -20; status=1; }
	done
	return $status
}
