# perf_bench.sh - shared by bench/perf-fp.sh and bench/perf-dwarf.sh (sourced; it sits in
# bench/lib/ so that bench/run-all does not run it): count samples, measure a command,
# run the four commands and print the ratios table.
# Callers set TEPHRA, DIR (scratch directory) and RUNS before calling.  When BENCH_TABLE
# names a file (bench/run-all sets it), perf_bench appends one tab-separated row of its
# figures there, for run-all's closing table (bench_table_print).

nr_samples() {
	perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

# record_samples DATA WANT LABEL RECORD_OPTIONS COMMAND: unless DATA holds WANT samples
# already (a cached recording), runs `perf record -q -N RECORD_OPTIONS -- sh -c COMMAND`,
# COMMAND finding in $MS how many milliseconds (of CPU time, for the bundled workloads) to
# run; MS grows until the recording holds WANT samples.
record_samples() {
	local data=$1 want=$2 label=$3 opts=$4 cmd=$5 ms=2000 got
	if [ -s "$data" ] && [ "$(nr_samples "$data")" -ge "$want" ] 2>/dev/null; then return 0; fi
	while :; do
		rm -f "$data.tmp" "$data.tmp.old" # perf record would keep the old file as .old
		echo "$label: recording $ms ms (perf record $opts)..." >&2
		MS=$ms perf record -q -N $opts -o "$data.tmp" -- sh -c "$cmd" >/dev/null 2>&1
		got=$(nr_samples "$data.tmp")
		[ "${got:-0}" -ge "$want" ] && break
		ms=$((ms * want / (${got:-0} + 1) + 500))
	done
	mv "$data.tmp" "$data"
}

# measure NAME OUTFILE COMMAND: prints wall seconds, CPU seconds (user+sys of all its
# processes) and peak RSS (KB; a pipeline counts its largest process) of COMMAND, a shell
# line whose output goes to OUTFILE.  CPU time is reported beside wall time because on a
# shared machine wall time mostly measures the neighbours.  A command without a pipe is
# run directly (a trailing 2>/dev/null honoured), so no shell's start-up is counted in
# its time; a pipeline runs under bash.
measure() {
	python3 - "$@" <<'PY'
import os, shlex, subprocess, sys, time
name, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3]
argv, err = None, None
if '|' not in cmd:
    argv = shlex.split(cmd)
    if argv and argv[-1] == '2>/dev/null':
        argv, err = argv[:-1], subprocess.DEVNULL
    if any(a[:1] in '<>' or a[:2] == '2>' for a in argv):
        argv = None
# The command's own usage, from wait4: RUSAGE_CHILDREN would also count what ran before
# this interpreter (a pyenv shim's bash and its children: ~0.3 s of CPU per command).
t0 = time.monotonic()
with open(out, 'wb') as f:
    if argv:
        p = subprocess.Popen(argv, stdout=f, stderr=err)
    else:
        p = subprocess.Popen(['bash', '-o', 'pipefail', '-c', cmd], stdout=f)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = rc = os.waitstatus_to_exitcode(status)
wall = time.monotonic() - t0
print('%s %.3f %d %d %.3f' % (name, wall, ru.ru_maxrss, rc, ru.ru_utime + ru.ru_stime))
PY
}

# perf_bench DATA NR_SAMPLES TAG FOLD_OPTIONS: measures perf script, the Perl pipeline
# (once, when FLAMEGRAPH_DIR holds stackcollapse-perf.pl), tephra script and tephra fold,
# prints the table and whether the outputs are identical.  perf script and the two tephra
# commands run RUNS times, interleaved so that a burst of the neighbours' load does not
# hit one command only; the best wall and CPU time of each is kept.
perf_bench() {
	local data=$1 n=$2 tag=$3 fold_opts=$4
	local out=$DIR/$tag-out results=$DIR/$tag-results.txt row=$DIR/$tag-row.tsv
	local sc=${FLAMEGRAPH_DIR:-}/stackcollapse-perf.pl
	: >"$results"
	if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$sc" ]; then
		measure perf_script_collapse "$out.pfold" "perf script -i '$data' 2>/dev/null | perl '$sc'" >>"$results"
	fi
	for _ in $(seq "$RUNS"); do
		measure perf_script "$out.perf" "perf script -i '$data' 2>/dev/null" >>"$results"
		# as perf script: stderr (here the stack-quality block, still computed) unseen
		measure tephra_script "$out.tephra" "'$TEPHRA' script -i '$data' 2>/dev/null" >>"$results"
		measure tephra_fold "$out.tfold" "'$TEPHRA' fold $fold_opts -i '$data' 2>/dev/null" >>"$results"
	done
	awk -v n="$n" -v row="$row" -v name="$(basename "$0" .sh)" -v mb="$(du -m "$data" | cut -f1)" '
		function keep_min(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
		{
			if (!($1 in seen)) { seen[$1] = 1 }
			keep_min(wall, $1, $2); keep_min(cpu, $1, $5)
			if ($3 > rss[$1]) rss[$1] = $3
			if ($4 != 0) bad = bad " " $1
		}
		END {
			order[1] = "perf_script"; order[2] = "perf_script_collapse"
			order[3] = "tephra_script"; order[4] = "tephra_fold"
			printf "%-22s %9s %8s %10s %8s %8s %9s\n", "command", "wall (s)", "CPU (s)", "peak RSS",
				"x wall", "x CPU", "RSS ratio"
			for (i = 1; i <= 4; i++) {
				k = order[i]
				if (!(k in seen)) continue
				printf "%-22s %9.3f %8.3f %7.1f MB %7.1fx %7.1fx %8.2fx\n", k, wall[k], cpu[k],
					rss[k] / 1024, wall["perf_script"] / (wall[k] > 0 ? wall[k] : 1e-9),
					cpu["perf_script"] / (cpu[k] > 0 ? cpu[k] : 1e-9), rss[k] / rss["perf_script"]
			}
			print "(best of the runs; x wall, x CPU: how many times faster than perf script; RSS ratio: peak RSS / perf script'"'"'s)"
			printf "samples per CPU second: tephra fold %.0f, tephra script %.0f, perf script %.0f\n",
				n / cpu["tephra_fold"], n / cpu["tephra_script"], n / cpu["perf_script"]
			if (bad != "") printf "FAILED commands:%s\n", bad
			# the table row: name, MB, samples, then wall, CPU, RSS (MB), x wall, x CPU of
			# perf script, tephra script, tephra fold; the verdict is added by the caller
			printf "%s\t%s\t%s", name, mb, n >row
			for (i = 1; i <= 4; i++) {
				k = order[i]
				if (k == "perf_script_collapse") continue
				printf "\t%.3f\t%.3f\t%.1f\t%.1f\t%.1f", wall[k], cpu[k], rss[k] / 1024,
					wall["perf_script"] / (wall[k] > 0 ? wall[k] : 1e-9),
					cpu["perf_script"] / (cpu[k] > 0 ? cpu[k] : 1e-9) >row
			}
			printf "\t%s", (bad != "" ? "FAILED:" bad "; " : "") >row
		}' "$results"
	local verdict
	if cmp -s "$out.perf" "$out.tephra"; then
		echo "tephra script output: identical to perf script ($(wc -c <"$out.perf") bytes)"
		verdict=yes
	else
		echo "tephra script output: $(python3 "$TOP/bench/lib/script_compare.py" "$out.perf" "$out.tephra" "$out.verdict")"
		verdict=$(cat "$out.verdict" 2>/dev/null || echo "DIFFERS")
	fi
	if [ -s "$out.pfold" ]; then
		# the old pipeline's lines are --compat's; the default differs on purpose (docs/folding.md)
		"$TEPHRA" fold --compat $fold_opts -i "$data" >"$out.tfold" 2>/dev/null
		if cmp -s "$out.pfold" "$out.tfold"; then
			echo "tephra fold output: identical to perf script | stackcollapse-perf.pl ($(wc -l <"$out.tfold") stacks)"
			verdict="$verdict; fold = stackcollapse-perf.pl"
		else
			echo "tephra fold output: DIFFERS from stackcollapse-perf.pl"; diff "$out.pfold" "$out.tfold" | head -n 5
			verdict="$verdict; fold DIFFERS from stackcollapse-perf.pl"
		fi
	fi
	[ -z "${BENCH_TABLE:-}" ] || printf '%s%s%s\n' "$(cat "$row")" "$verdict" "${BENCH_NOTE:+ ($BENCH_NOTE)}" >>"$BENCH_TABLE"
	rm -f "$out".* "$row"
}

# bench_table_print FILE: the rows perf_bench appended to FILE, as one aligned table.
bench_table_print() {
	awk -F '\t' '
		BEGIN {
			printf "%-11s %6s %8s | %-20s | %-31s | %-31s | %s\n", "benchmark", "MB", "samples",
				"perf script", "tephra script", "tephra fold", "identical to perf script"
			printf "%-11s %6s %8s | %-20s | %-31s | %-31s |\n", "", "", "",
				"wall   CPU    RSS", "wall   CPU    RSS   x wall x CPU", "wall   CPU    RSS   x wall x CPU"
		}
		{
			printf "%-11s %6s %8s | %6.2f %6.2f %4.0fM | %6.2f %6.2f %4.0fM %5.1fx %5.1fx | %6.2f %6.2f %4.0fM %5.1fx %5.1fx | %s\n",
				$1, $2, $3, $4, $5, $6, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19
		}
		END { print "(wall and CPU in seconds, best of BENCH_RUNS runs; RSS peak, MB; x: times faster than perf script)" }' "$1"
}
