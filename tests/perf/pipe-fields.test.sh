# pipe-fields: in pipe mode perf script adds ip and sym to the -F fields of an event
# whose recording has call graphs (callchains, or DWARF stack dumps), even over a -F list
# that names neither (`-F comm,tid,ip` prints `ADDR SYMBOL` frames); a file's -F list is
# taken as given, and a pipe without call graphs gets nothing added.  tephra script took
# every -F list as given.  Oracle: perf script with the same -F on the same bytes, the
# stream saved to a file and read from a real pipe.
. "$TOP/tests/perf/lib.sh"
need_perf
build_workloads
cd "$TEST_TMP" || exit 1
perf record -q -N -g -o - -- "$WL/recurse" 150 2>/dev/null >fp.pipe || { echo "perf record -g -o - failed"; exit 1; }
perf record -q -N --call-graph dwarf -o - -- "$WL/recurse" 60 2>/dev/null >dwarf.pipe || { echo "perf record --call-graph dwarf -o - failed"; exit 1; }
perf record -q -N -o - -- "$WL/recurse" 100 2>/dev/null >flat.pipe || { echo "perf record -o - failed"; exit 1; }
record fp.data -g -- "$WL/recurse" 100

# The premise: perf does add the symbols (a frame line with a name after the address).
perf script -i fp.pipe -F comm,tid,ip 2>/dev/null | grep -qE '^	 *[0-9a-f]+ [A-Za-z_[]' ||
	fail "perf script -F comm,tid,ip on the -g pipe prints no symbol: nothing tested"

for f in comm,tid,ip comm,tid comm,tid,time -dso +period; do
	check_script "fp-pipe $f" fp.pipe -F "$f"
	check_script "dwarf-pipe $f" dwarf.pipe -F "$f"
done
check_script "flat-pipe comm,tid,ip" flat.pipe -F comm,tid,ip
check_script "file comm,tid,ip" fp.data -F comm,tid,ip
# from a real pipe
perf script -i - -F comm,tid,ip <fp.pipe >stdin.perf 2>/dev/null
"$TEPHRA" script -q -F comm,tid,ip - <fp.pipe >stdin.tephra 2>stdin.err || fail "tephra script - failed: $(head -n 2 stdin.err)"
same_bytes "fp-pipe from stdin" stdin.perf stdin.tephra
finish
