# speedscope_lib.sh - sourced by tests/export/speedscope*.test.sh (after tests/perf/lib.sh).

# thread_oracles DATA DIR: per thread TID that perf script shows for the recording DATA,
#   DIR/TID.name     "COMM (PID/TID)", the thread's last comm as perf script prints it
#   DIR/TID.periods  its sample periods, one a line, in perf script's (time) order
#   DIR/TID.folded   `tephra fold --only-tid TID` without its root (comm) frame
thread_oracles() {
	local data=$1 dir=$2 tid
	mkdir -p "$dir"
	for tid in $(perf script -i "$data" -F tid 2>/dev/null | sort -un); do
		perf script -i "$data" -F comm,pid,tid --tid "$tid" 2>/dev/null | tail -n 1 |
			sed -E 's/^ *(.*[^ ]) +([0-9]+)\/([0-9]+) *$/\1 (\2\/\3)/' >"$dir/$tid.name"
		perf script -i "$data" -F period --tid "$tid" 2>/dev/null | awk '{ print $1 }' >"$dir/$tid.periods"
		"$TEPHRA" fold -q --only-tid "$tid" "$data" | cut -d';' -f2- >"$dir/$tid.folded"
	done
}
