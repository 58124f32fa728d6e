# speedscope_lib.sh - sourced by tests/export/speedscope*.test.sh (after tests/perf/lib.sh)
# and tests/grind/export.test.sh (after tests/skips.sh).

# speedscope_schema: prints the path of the file-format schema the speedscope npm package
# ships (tests/export/speedscope, installed with npm ci when absent), for validation with
# python3-jsonschema; prints nothing (after tests/skips.sh's partial) when it cannot.
# Strict, that is a failure: call it as schema=$(speedscope_schema) || exit 1.
speedscope_schema() {
	local dir=$TOP/tests/export/speedscope
	python3 -c 'import jsonschema' 2>/dev/null ||
		{ partial "python3-jsonschema is not installed: the speedscope schema is not checked" >&2; return 0; }
	if [ ! -d "$dir/node_modules/speedscope" ]; then
		want_tool npm "the speedscope schema" "scripts/install-deps test" >&2 || return 0
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) ||
			{ partial "npm ci could not install speedscope: the schema is not checked" >&2; return 0; }
	fi
	ls "$dir"/node_modules/speedscope/dist/release/file-format-schema.json 2>/dev/null ||
		{ partial "speedscope has no dist/release/file-format-schema.json: the schema is not checked" >&2; return 0; }
}

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
