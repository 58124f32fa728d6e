# perf_bench.sh - shared by bench/perf-fp.sh and bench/perf-dwarf.sh (sourced; it sits in
# bench/lib/ so that bench/run-all does not run it): count samples, measure a command,
# run the four commands and print the ratios table.
# Callers set TEPHRA, DIR (scratch directory) and RUNS before calling.

nr_samples() {
	perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

# measure NAME OUTFILE COMMAND: prints wall seconds, CPU seconds (user+sys of all its
# processes) and peak RSS (KB; a pipeline counts its largest process) of COMMAND, a shell
# line whose output goes to OUTFILE.  CPU time is reported beside wall time because on a
# shared machine wall time mostly measures the neighbours.  A command without a pipe is
# run directly (a trailing 2>/dev/null honoured), so no shell's start-up is counted in
# its time; a pipeline runs under bash.
measure() {
	python3 - "$@" <<'PY'
import resource, shlex, subprocess, sys, time
name, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3]
argv, err = None, None
if '|' not in cmd:
    argv = shlex.split(cmd)
    if argv and argv[-1] == '2>/dev/null':
        argv, err = argv[:-1], subprocess.DEVNULL
    if any(a[:1] in '<>' or a[:2] == '2>' for a in argv):
        argv = None
t0 = time.monotonic()
with open(out, 'wb') as f:
    if argv:
        rc = subprocess.call(argv, stdout=f, stderr=err)
    else:
        rc = subprocess.call(['bash', '-o', 'pipefail', '-c', cmd], stdout=f)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
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
	local out=$DIR/$tag-out results=$DIR/$tag-results.txt
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
	awk -v n="$n" '
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
		}' "$results"
	if cmp -s "$out.perf" "$out.tephra"; then
		echo "tephra script output: identical to perf script ($(wc -c <"$out.perf") bytes)"
	else
		echo "tephra script output: $(python3 "$TOP/bench/lib/script_compare.py" "$out.perf" "$out.tephra")"
	fi
	if [ -s "$out.pfold" ]; then
		# the old pipeline's lines are --compat's; the default differs on purpose (docs/folding.md)
		"$TEPHRA" fold --compat $fold_opts -i "$data" >"$out.tfold" 2>/dev/null
		if cmp -s "$out.pfold" "$out.tfold"; then
			echo "tephra fold output: identical to perf script | stackcollapse-perf.pl ($(wc -l <"$out.tfold") stacks)"
		else
			echo "tephra fold output: DIFFERS from stackcollapse-perf.pl"; diff "$out.pfold" "$out.tfold" | head -n 5
		fi
	fi
	rm -f "$out".*
}
