#!/usr/bin/env bash
# Programs that start others: every process is followed and is a root frame of one
# profile ("comm", "comm-PID" with --pid), as a user runs it: a C program that forks
# and execs another (progs/spawn.c, progs/spawnee.c) and `gcc -O2 -c x.c`.
#
# Oracle for the per-process totals: lackey (--vex-guest-chase=no, as lackey.test.sh)
# with --trace-children=yes and a log per pid, under the same environment built from
# nothing (lackey.test.sh says why the environment must be identical to the byte).
# Lackey reports a process's count at its end, so it reports each program a process
# ran to its end: the parent (which never execs) and each exec'd program from its
# start.  A forked child's part before its exec is never reported by lackey (no end
# of run before the exec): there the hand-worked work() line is the check.
#
# The pids are made the same too: a program that prints its pid runs more instructions
# for more digits (spawn.c printed them at first: two runs on each side of the pid
# counter's wrap from 32768 to 300 differed), and gcc's driver and cc1 call getpid.  So
# both runs start in a new pid namespace (unshare -pf), where they get the same pids:
# tephra grind is pid 1 and runs `valgrind --version` as pid 2, so the program is pid
# 3; lackey's valgrind gets pid 3 behind a /bin/true.  (gcc -O2 -pipe -c x.c counted
# the same with pids 3-5 and four-digit ones; the namespace makes it so by construction.)
# The working directory matters as well (gcc's counts differ between two directories):
# both runs use the same one.
. "$(dirname "$0")/lib.sh"
[ -x /usr/libexec/valgrind/lackey-amd64-linux ] || skip "lackey not installed"
build spawn "$PROGS/spawn.c"
build spawnee "$PROGS/spawnee.c"
mkdir -p "$TEST_TMP/lib"
for f in "$TOP"/build/grind/lib/*; do ln -s "$(readlink -f "$f")" "$TEST_TMP/lib/"; done
ln -s /usr/libexec/valgrind/lackey-amd64-linux "$TEST_TMP/lib/"
cd "$TEST_TMP"
# TMPDIR of this test's own: the per-process directory left behind is looked for there
# (under /tmp it would be any concurrent grind's, another test's or a user's)
mkdir -p "$TEST_TMP/tmp" || exit 1
same_env=(env -i PATH="$PATH" LC_ALL=C TMPDIR="$TEST_TMP/tmp" TEPHRA_GRIND_LIB="$TEST_TMP/lib" VALGRIND_LIB="$TEST_TMP/lib")

# root_totals FOLDED: "ROOT TOTAL" per root frame, sorted.
root_totals() { awk '{ r = $0; sub(/;.*/, "", r); s[r] += $NF } END { for (r in s) print r, s[r] }' "$1" | sort; }
# lackey_total PID: the instructions lackey counted in process PID (its log lk.PID).
lackey_total() { sed -n 's/.*guest instrs: *\([0-9,]*\)$/\1/p' "lk.$1" | tr -d ,; }
pid_ns=(unshare -pf)
"${pid_ns[@]}" /bin/true 2>/dev/null ||
	{ pid_ns=(); echo "no new pid namespace (unshare -pf needs root): lackey comparisons not run"; }
# lackey's command, the program pid 3 as under tephra grind (run through "${same_env[@]}")
lackey_in_pid_ns=(unshare -pf sh -c '/bin/true; valgrind --tool=lackey --vex-guest-chase=no --trace-children=yes --log-file=lk.%p "$@"; exit $?' _)

# --- fork + exec, default: one profile, a root per process name, the exit status of
# the program (spawnee's 5, passed on by spawn).
"${same_env[@]}" "$TEPHRA" grind --no-svg -o s.folded ./spawn ./spawnee >s.out 2>s.err
rc=$?
[ $rc = 5 ] || { cat s.err; fail "exit status $rc, not the program's 5"; }
has_line s.folded "spawn;main;work 6506"      # parent 2002 + 4002, child 502 before its exec
has_line s.folded "spawnee;main;work 6002"
others=$(grep -vE '^(spawn|spawnee);' s.folded)
[ -z "$others" ] || { echo "$others" | head; fail "stacks without a process root"; }
grep -qE "^tephra grind: $TEST_TMP/s.folded: [0-9]+ instructions counted in 3 processes, [0-9]+ stacks, deepest stack [0-9]+ frames, 0 underflows repaired, [0-9]+ frames seeded$" s.err ||
	{ cat s.err; fail "no summary line for 3 processes"; }
grep -q warning s.err && { cat s.err; fail "a warning where every program was followed"; }
ls "$TEST_TMP/tmp"/tephra-grind.* 2>/dev/null | grep -q . &&
	fail "the per-process directory was left behind"

# --- --pid: a root per process; totals against lackey's, per pid.
"${same_env[@]}" "${pid_ns[@]}" "$TEPHRA" grind --no-svg --pid -o p.folded ./spawn ./spawnee >p.out 2>p.err
[ $? = 5 ] || { cat p.err; fail "--pid: exit status"; }
# The child is the pid that ran spawnee, the parent the other one.
child=$(sed -n 's/^spawnee-\([0-9]*\);.*/\1/p' p.folded | sort -u)
parent=$(sed -n 's/^spawn-\([0-9]*\);.*/\1/p' p.folded | sort -u | grep -vx "$child")
[ "$(wc -w <<<"$child $parent")" = 2 ] || fail "not one parent and one child: $child / $parent"
has_line p.folded "spawn-$parent;main;work 6004"
has_line p.folded "spawn-$child;main;work 502"
has_line p.folded "spawnee-$child;main;work 6002"
roots=$(root_totals p.folded | awk '{ print $1 }' | tr '\n' ' ')
[ "$roots" = "$(printf '%s\n' spawn-$child spawn-$parent spawnee-$child | sort | tr '\n' ' ')" ] ||
	fail "roots: $roots"

if [ ${#pid_ns[@]} -gt 0 ]; then
	rm -f lk.*
	"${same_env[@]}" "${lackey_in_pid_ns[@]}" ./spawn ./spawnee >lk.out 2>&1
	# Lackey's parent log is the one of ./spawn; the child's is the one of ./spawnee (its
	# part before the exec wrote no count).
	lparent=$(grep -l 'Command: \./spawn \./spawnee$' lk.[0-9]*) lchild=$(grep -l 'Command: \./spawnee$' lk.[0-9]*)
	lparent=${lparent#lk.} lchild=${lchild#lk.}
	ours=$(root_totals p.folded | awk -v r="spawn-$parent" '$1 == r { print $2 }')
	theirs=$(lackey_total "$lparent")
	[ -n "$theirs" ] && [ "$ours" = "$theirs" ] || fail "parent: ours $ours, lackey $theirs"
	ours=$(root_totals p.folded | awk -v r="spawnee-$child" '$1 == r { print $2 }')
	theirs=$(lackey_total "$lchild")
	[ -n "$theirs" ] && [ "$ours" = "$theirs" ] || fail "spawnee: ours $ours, lackey $theirs"
	echo "spawn: parent and spawnee as lackey counts them ($(total p.folded) in all)"
fi

# --- %p in -o: a file per process, each with that process's lines of the profile.
"${same_env[@]}" "$TEPHRA" grind --no-svg -o 'g.%p.folded' ./spawn ./spawnee >g.out 2>g.err
[ $? = 5 ] || { cat g.err; fail "%p: exit status"; }
grep -q 'was not written' g.err && { cat g.err; fail "%p: said it was not written"; }
files=$(ls g.*.folded)
[ "$(wc -w <<<"$files")" = 2 ] || fail "not two files: $files"
gchild=$(grep -l '^spawnee;' $files) gparent=$(grep -L '^spawnee;' $files)
[ -n "$gchild" ] && [ -n "$gparent" ] || fail "no file with the child's lines: $files"
has_line $gparent "spawn;main;work 6004"
has_line $gchild "spawn;main;work 502"
has_line $gchild "spawnee;main;work 6002"
grep -qE "^tephra grind: $TEST_TMP/g.%p.folded: $(($(total $gparent) + $(total $gchild))) instructions counted in 3 processes" g.err ||
	{ cat g.err; fail "the per-process files do not add up to the profile's total"; }

# --- an exec that fails: the child goes on (exits 127), no warning.
"$TEPHRA" grind --no-svg -o ne.folded ./spawn ./nonexistent >ne.out 2>ne.err
[ $? = 127 ] || { cat ne.err; fail "failed exec: exit status"; }
has_line ne.folded "spawn;main;work 6506"
grep -q warning ne.err && { cat ne.err; fail "a warning for an exec that failed"; }

# --- a program Valgrind is told not to follow: it runs, and a warning names it.
"$TEPHRA" grind --no-svg -o sk.folded --valgrind-opt='--trace-children-skip=*spawnee' ./spawn ./spawnee >sk.out 2>sk.err
[ $? = 5 ] || { cat sk.err; fail "skipped child: exit status"; }
has_line sk.folded "spawn;main;work 6506"
no_match sk.folded '^spawnee'
grep -qE '^tephra grind: warning: process [0-9]+ ran \./spawnee without the tool \(not followed: a setuid or setgid program, or one --trace-children-skip names\): its instructions are not counted$' sk.err ||
	{ cat sk.err; fail "no warning for the skipped program"; }

# --- --no-children: the old files (FILE, FILE.PID) and a warning for the exec.
"$TEPHRA" grind --no-svg --no-children -o n.folded ./spawn ./spawnee >n.out 2>n.err
[ $? = 5 ] || { cat n.err; fail "--no-children: exit status"; }
nchild=$(ls n.folded.* | sed -n 's/^n\.folded\.\([0-9]*\)$/\1/p')
[ -n "$nchild" ] || fail "--no-children: no n.folded.PID"
has_line n.folded "main;work 6004"
has_line n.folded.$nchild "main;work 502"
grep -qE "^tephra grind: warning: process $nchild ran \./spawnee without the tool \(--no-children\): its instructions are not counted$" n.err ||
	{ cat n.err; fail "no warning for the untraced program"; }
"$TEPHRA" grind --valgrind-opt=--trace-children=no ./spawn ./spawnee 2>opt.err; [ $? = 2 ] ||
	fail "--valgrind-opt=--trace-children accepted"
grep -q "tephra grind's to set" opt.err || fail "unclear message: $(cat opt.err)"
"$TEPHRA" grind --pid --no-children ./spawn ./spawnee 2>opt.err; [ $? = 2 ] &&
	grep -q 'not with --no-children' opt.err || fail "--pid with --no-children: $(cat opt.err)"

# --- a setuid program: Valgrind cannot follow it (the exec would fail with EACCES);
# it runs natively and is named in a warning.  Needs root to make one and another
# user to run it as.
if [ "$(id -u)" = 0 ] && want_tool setpriv "a setuid child" util-linux; then
	mkdir -m 777 suid && cp spawn spawnee suid/ && chmod 4755 suid/spawnee
	chmod o+rx "$TEST_TMP"
	# tephra and its tool copied where the other user can reach them (the checkout may
	# be under a home directory it cannot enter, as /root in a fresh root)
	mkdir -m 755 suid/lib && cp -L "$TOP"/build/grind/lib/* suid/lib/ && cp "$TEPHRA" suid/tephra &&
		chmod -R a+rX suid/lib suid/tephra || fail "copying tephra for the other user"
	(cd suid && setpriv --reuid=65534 --regid=65534 --clear-groups env TEPHRA_GRIND_LIB="$PWD/lib" \
		VALGRIND_LIB="$PWD/lib" ./tephra grind --no-svg -o su.folded ./spawn ./spawnee >su.out 2>su.err)
	rc=$?
	[ $rc = 5 ] || { cat suid/su.err; fail "setuid child: exit status $rc, not spawnee's 5"; }
	has_line suid/su.folded "spawn;main;work 6506"
	grep -q 'ran \./spawnee without the tool (not followed' suid/su.err ||
		{ cat suid/su.err; fail "no warning for the setuid program"; }
else
	echo "note: setuid case not run (needs root)"
fi

# --- gcc -O2 -c x.c: the driver, cc1 and as, each a root; the object file is made.
printf 'int sq(int x) { return x * x; }\n' >x.c
"$TEPHRA" grind --no-svg -o gcc.folded gcc -O2 -c x.c >gcc.out 2>gcc.err ||
	{ cat gcc.err; fail "tephra grind gcc failed"; }
[ -s x.o ] || fail "gcc made no x.o"
roots=$(root_totals gcc.folded | awk '{ print $1 }' | tr '\n' ' ')
[ "$roots" = "as cc1 gcc " ] || fail "gcc roots: $roots"
grep -q '^cc1;main;' gcc.folded || fail "cc1's stacks do not start at main"
grep -qE "instructions counted in [0-9]+ processes" gcc.err || { cat gcc.err; fail "no summary"; }

# Per-program totals against lackey's.  -pipe: cc1 and as talk through a pipe instead
# of a temporary file whose name is random in each run (a name's bytes can change what
# as does with it, e.g. hash collisions), so both runs execute the same instructions.
if [ ${#pid_ns[@]} -gt 0 ]; then
	rm -f lk.*
	"${same_env[@]}" "${pid_ns[@]}" "$TEPHRA" grind --no-svg --pid -o gccp.folded gcc -O2 -pipe -c x.c 2>gccp.err ||
		{ cat gccp.err; fail "tephra grind gcc -pipe failed"; }
	"${same_env[@]}" "${lackey_in_pid_ns[@]}" gcc -O2 -pipe -c x.c 2>/dev/null || fail "lackey gcc failed"
	# Ours by root: cc1-PID and as-PID, and the driver gcc-PID whose pid ran nothing else
	# (the other gcc-PID roots are the forked children before they exec'd cc1 and as).
	# Lackey's logs by the command line each begins with.
	root_totals gccp.folded >gccp.roots
	kids=$(awk '$1 !~ /^gcc-/ { sub(/^.*-/, "", $1); print $1 }' gccp.roots)
	driver=$(awk '$1 ~ /^gcc-/ { print $1 }' gccp.roots | grep -vxE "gcc-($(echo $kids | tr ' ' '|'))")
	[ "$(wc -w <<<"$driver")" = 1 ] || fail "no single driver root: $driver"
	for prog in gcc cc1 as; do
		case $prog in
		gcc) ours=$(awk -v r="$driver" '$1 == r { print $2 }' gccp.roots); pat='Command: gcc ';;
		*) ours=$(awk -v p="^$prog-" '$1 ~ p { n++; v = $2 } END { if (n == 1) print v }' gccp.roots)
		   pat="Command: .*/$prog ";;
		esac
		logs=$(grep -l -- "$pat" lk.*)
		[ "$(wc -w <<<"$logs")" = 1 ] || fail "lackey: not one log for $prog: $logs"
		theirs=$(lackey_total "${logs#lk.}")
		[ -n "$ours" ] && [ "$ours" = "$theirs" ] || fail "gcc -pipe, $prog: ours $ours, lackey $theirs"
		echo "gcc -pipe, $prog: $ours instructions, as lackey"
	done
fi

# --- a process that outlives the program: its file is still empty when tephra grind
# reads the files (the tool takes the name at the fork and writes it at the end), so it
# is not counted and a warning says so; the parent's stacks are the profile.
build outlive "$PROGS/outlive.c"
mkfifo release
"$TEPHRA" grind --no-svg -o ol.folded ./outlive release >ol.out 2>ol.err
rc=$?
# Lets the child end (its tool then writes into a directory that is gone).  Opened
# read-write, so this never blocks even if no child is waiting.
exec 3<>release
echo go >&3
[ $rc = 0 ] || { cat ol.err; fail "outlive: exit status $rc"; }
has_line ol.folded "outlive;main;work 2002"
no_match ol.folded 'work 1002$'
grep -qx 'tephra grind: warning: 1 process started by ./outlive still ran when it ended: not counted' ol.err ||
	{ cat ol.err; fail "no warning for the process still running"; }
