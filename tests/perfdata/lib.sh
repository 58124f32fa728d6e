# lib.sh - shared helpers for the perfdata tests (sourced).
#
# canon_perf / canon_tephra turn `perf script -D` and `tephra stat --records` into the
# same one-line-per-record form:
#   TIME OFFSET SIZE TYPE [PID/TID IP PERIOD [chain:N E…] [regs:ABI MASK V…] [ustack:SIZE OFF]]
#   TIME OFFSET SIZE TYPE | the rest of perf's line     (for DETAIL_TYPES)
# TIME is left out ("-") for perf's own records (type >= 64), whose dump shows no time.

USER_TYPES='^(ATTR|EVENT_TYPE|TRACING_DATA|BUILD_ID|FINISHED_ROUND|ID_INDEX|AUXTRACE_INFO|AUXTRACE|AUXTRACE_ERROR|THREAD_MAP|CPU_MAP|STAT_CONFIG|STAT|STAT_ROUND|EVENT_UPDATE|TIME_CONV|FEATURE|COMPRESSED|FINISHED_INIT|COMPRESSED2)$'

# Records whose whole dump line (after the type) is compared: every field of these.
DETAIL_TYPES='^(MMAP|MMAP2|COMM|FORK|EXIT|LOST|LOST_SAMPLES)$'

# perf script -D output on stdin; $1 = offset to add (16 for pipe mode, whose offsets
# perf counts from after the 16-byte stream header).
canon_perf() {
	awk -v add="${1:-0}" -v user="$USER_TYPES" -v detail="$DETAIL_TYPES" '
	function hex(s,   n, i, c) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			n = n * 16 + c
		}
		return n
	}
	function flush() { if (cur != "") print cur; cur = ""; mode = "" }
	/^\.\.\. FP chain: nr:/ { sub(/^.*nr:/, ""); cur = cur " chain:" $0; mode = "chain"; next }
	/^\.\.\.\.\. +[0-9]+: [0-9a-f]+$/ { if (mode == "chain") cur = cur " " $3; next }
	/^\.\.\. user regs: mask / { cur = cur " regs:" $7 " " $5; mode = "regs"; next }
	/^\.\.\.\. [A-Z0-9]+ +0x[0-9a-f]+$/ { if (mode == "regs") cur = cur " " $3; next }
	/^\.\.\. ustack: size / { v = $4; sub(/,$/, "", v); cur = cur " ustack:" v " " $6; next }
	/\]: PERF_RECORD_/ && !/^\. / {
		k = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^\[0x[0-9a-f]+\]:$/) { k = i; break }
		if (k < 2) next
		flush()
		off = hex($(k - 1)) + add
		t = (k >= 3) ? $(k - 2) : "0"
		size = substr($k, 2, length($k) - 3)
		type = $(k + 1); sub(/^PERF_RECORD_/, "", type); sub(/[(:].*$/, "", type)
		if (type ~ user) t = "-"
		cur = sprintf("%s 0x%x %s %s", t, off, size, type)
		if (type == "SAMPLE") {
			pt = $(k + 3); sub(/:$/, "", pt)
			cur = cur " " pt " " $(k + 4) " " $(k + 6)
		} else if (type ~ detail) {
			rest = $0; sub(/^.*\]: PERF_RECORD_[A-Z0-9_]*/, "", rest)
			cur = cur " |" rest
		}
	}
	END { flush() }'
}

# tephra stat --records output on stdin.
canon_tephra() {
	awk -v user="$USER_TYPES" -v detail="$DETAIL_TYPES" '
	function flush() { if (cur != "") print cur; cur = "" }
	/^\.\.\. chain: / { cur = cur " chain:" $3; for (i = 4; i <= NF; i++) cur = cur " " $i; next }
	/^\.\.\. user regs: / { cur = cur " regs:" $4 " " $5; for (i = 6; i <= NF; i++) cur = cur " " $i; next }
	/^\.\.\. ustack: / { v = $4; sub(/,$/, "", v); cur = cur " ustack:" v " " $6; next }
	{
		flush()
		t = $1; off = $2; size = substr($3, 2, length($3) - 3)
		type = $4; sub(/^PERF_RECORD_/, "", type); sub(/[(:].*$/, "", type)
		if (type ~ /^COMPRESSED/) next   # perf -D does not show the containers
		if (type ~ user) t = "-"
		cur = sprintf("%s %s %s %s", t, off, size, type)
		if (type == "SAMPLE") {
			pt = $5; sub(/:$/, "", pt)
			cur = cur " " pt " " $6 " " $8
		} else if (type ~ detail) {
			rest = $0; sub(/^.*\]: PERF_RECORD_[A-Z0-9_]*/, "", rest)
			cur = cur " |" rest
		}
	}
	END { flush() }'
}

# Skips the test unless perf can record here (tests/skips.sh: fails when strict).
. "$TOP/tests/skips.sh"
require_perf() { need_perf_record; }

# record_lossy OUT: a recording that loses samples (LOST_SAMPLES records) by construction,
# in the current directory: a one-page buffer, and perf stopped (SIGSTOP) while its
# workload runs ~300,000 shell loop steps with a sample every 100 us of CPU time:
# thousands of samples with call chains, a few dozen fit (~6600 lost here).  The workload
# says when it starts and ends through FIFOs (no sleeps); read -t only bounds a broken run.
# (perf record -a -F 20000 -m 1 -- sleep 0.3 lost samples only on a busy machine.)
record_lossy() {
	local out=$1 perf_pid
	rm -f lossy.ready lossy.go lossy.done
	mkfifo lossy.ready lossy.go lossy.done || exit 1
	perf record -q -m 1 -g -e cpu-clock -c 100000 -o "$out" -- sh -c \
		'echo $$ >lossy.ready; read x <lossy.go; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo >lossy.done' \
		>/dev/null 2>lossy.err &
	perf_pid=$!
	read -r -t 300 _ <lossy.ready || { cat lossy.err; echo "the lossy recording's workload did not start"; exit 1; }
	kill -STOP "$perf_pid"
	echo go >lossy.go
	read -r -t 300 _ <lossy.done || { kill -CONT "$perf_pid"; echo "the lossy recording's workload did not end"; exit 1; }
	kill -CONT "$perf_pid"
	wait "$perf_pid" || { cat lossy.err; echo "perf record (lossy) failed"; exit 1; }
	perf report -i "$out" --stats 2>/dev/null | grep -Eq '^ *LOST(_SAMPLES)? events:' ||
		{ echo "FAIL: $out: the lossy recording lost nothing"; exit 1; }
}

# A small CPU-bound workload with two threads of work (two shells).
burn() {
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' &
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
	wait
}
