# lib.sh - shared helpers for the perfdata tests (sourced).
#
# canon_perf / canon_tephra turn `perf script -D` and `tephra stat --records` into the
# same one-line-per-record form:
#   TIME OFFSET SIZE TYPE [PID/TID IP PERIOD]
# TIME is left out ("-") for perf's own records (type >= 64), whose dump shows no time.

USER_TYPES='^(ATTR|EVENT_TYPE|TRACING_DATA|BUILD_ID|FINISHED_ROUND|ID_INDEX|AUXTRACE_INFO|AUXTRACE|AUXTRACE_ERROR|THREAD_MAP|CPU_MAP|STAT_CONFIG|STAT|STAT_ROUND|EVENT_UPDATE|TIME_CONV|FEATURE|COMPRESSED|FINISHED_INIT|COMPRESSED2)$'

# perf script -D output on stdin; $1 = offset to add (16 for pipe mode, whose offsets
# perf counts from after the 16-byte stream header).
canon_perf() {
	awk -v add="${1:-0}" -v user="$USER_TYPES" '
	function hex(s,   n, i, c) {
		n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			n = n * 16 + c
		}
		return n
	}
	/^\./ { next }
	/\]: PERF_RECORD_/ {
		k = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^\[0x[0-9a-f]+\]:$/) { k = i; break }
		if (k < 2) next
		off = hex($(k - 1)) + add
		t = (k >= 3) ? $(k - 2) : "0"
		size = substr($k, 2, length($k) - 3)
		type = $(k + 1); sub(/^PERF_RECORD_/, "", type); sub(/[(:].*$/, "", type)
		if (type ~ user) t = "-"
		line = sprintf("%s 0x%x %s %s", t, off, size, type)
		if (type == "SAMPLE") {
			pt = $(k + 3); sub(/:$/, "", pt)
			line = line " " pt " " $(k + 4) " " $(k + 6)
		}
		print line
	}'
}

# tephra stat --records output on stdin.
canon_tephra() {
	awk -v user="$USER_TYPES" '
	{
		t = $1; off = $2; size = substr($3, 2, length($3) - 3)
		type = $4; sub(/^PERF_RECORD_/, "", type); sub(/[(:].*$/, "", type)
		if (type ~ /^COMPRESSED/) next   # perf -D does not show the containers
		if (type ~ user) t = "-"
		line = sprintf("%s %s %s %s", t, off, size, type)
		if (type == "SAMPLE") {
			pt = $5; sub(/:$/, "", pt)
			line = line " " pt " " $6 " " $8
		}
		print line
	}'
}

# Skips the test (exit 77) unless perf can record here.
require_perf() {
	command -v perf >/dev/null || { echo "perf is not installed"; exit 77; }
	perf record -o "$TEST_TMP/probe.data" -- true >/dev/null 2>&1 ||
		{ echo "perf record does not work here (perf_event_paranoid?)"; exit 77; }
}

# A small CPU-bound workload with two threads of work (two shells).
burn() {
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' &
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
	wait
}
