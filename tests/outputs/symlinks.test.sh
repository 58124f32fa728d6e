#!/usr/bin/env bash
# Another user plants a symbolic link at the output path in a sticky world-writable
# directory (as /tmp): root running tephra refuses it, naming the link, and the file it
# points to is neither written nor created (before: flamegraph, heatmap, record's
# flame.svg, grind's grind.svg wrote through it; grind's check before the run created
# a missing target empty).  A link root owns is followed, and stays a link.  The links
# are planted by nobody (setpriv); the oracle is the targets' bytes, copied before.
# fs.protected_symlinks (the kernel's own refusal in sticky directories) is not
# needed: tephra's rule is its own (tests/unit/base_out_file.c checks it also outside a
# sticky directory).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "planting links as another user needs root"
command -v setpriv >/dev/null || skip "setpriv not installed"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
make_inputs
chmod 755 "$TEST_TMP"
mkdir -m 1777 shared
$NOBODY ln -s ../probe-target shared/probe && [ "$(stat -c %u shared/probe)" = 65534 ] ||
	skip "premise: nobody cannot make a link in a sticky directory here"
echo "kernel fs.protected_symlinks=$(cat /proc/sys/fs/protected_symlinks 2>/dev/null)"
for name in $CMDS; do
	echo "root's $name" >"victim.$name"
	cp "victim.$name" "victim.$name.copy"
	$NOBODY ln -s "../victim.$name" "shared/$name.out"
	run_cmd "$name" "shared/$name.out"; rc=$?
	[ $rc != 0 ] || fail "$name: exit 0 through nobody's link"
	grep -qE "^tephra [a-z]+: (.*/)?shared/$name.out: a symbolic link owned by uid 65534, neither you nor root: not followed$" "$name.err" ||
		{ cat "$name.err"; fail "$name: no error naming the link"; }
	cmp -s "victim.$name" "victim.$name.copy" || fail "$name: the link's target was written"
	[ "$(readlink "shared/$name.out")" = "../victim.$name" ] || fail "$name: the link was replaced"
	echo "ok $name"
done
# The default outputs, from inside the shared directory: record's flame.svg (refused
# before perf runs: no recording made), grind's grind.svg and grind.folded, whose
# targets do not exist and must not be created.
cd shared
$NOBODY ln -s ../victim.flamegraph flame.svg
"$TEPHRA" record -q -d ../rec.data -- sh -c "$LOOP" 2>record.err; rc=$?
[ $rc = 1 ] && grep -q "flame.svg: a symbolic link owned by uid 65534" record.err ||
	{ cat record.err; fail "record's default flame.svg: exit $rc"; }
[ ! -e ../rec.data ] || fail "record ran perf before refusing its output"
cmp -s ../victim.flamegraph ../victim.flamegraph.copy || fail "record wrote through flame.svg"
if [[ " $CMDS " = *" grind "* ]]; then
	$NOBODY ln -s ../nologin grind.svg
	$NOBODY ln -s ../nologin.folded grind.folded
	"$TEPHRA" grind -q /bin/true 2>grind.err; rc=$?
	[ $rc = 1 ] && grep -q "grind.folded: a symbolic link owned by uid 65534" grind.err ||
		{ cat grind.err; fail "grind's defaults: exit $rc"; }
	[ ! -e ../nologin ] && [ ! -e ../nologin.folded ] || fail "grind created a link's target"
	rm -f grind.folded
	"$TEPHRA" grind -q -o g.folded /bin/true 2>grind.err; rc=$?
	[ $rc = 1 ] && grep -q "grind.svg: a symbolic link owned by uid 65534" grind.err ||
		{ cat grind.err; fail "grind's default SVG: exit $rc"; }
	[ ! -e ../nologin ] || fail "grind created grind.svg's target"
	echo "ok grind defaults"
	# A dump the program asks for (CALLGRIND_DUMP_STATS: FILE.1) was written by the
	# tool itself, through any link: now it is copied by the same rule.
	gcc -O1 -g -fno-inline -fno-omit-frame-pointer -I"$TOP/include" -o requests "$TOP/tests/grind/progs/requests.c" ||
		fail "cannot build requests.c"
	echo precious >../victim.dump
	$NOBODY ln -s ../victim.dump r.folded.1
	"$TEPHRA" grind -q --no-svg -o r.folded ./requests 2>dump.err; rc=$?
	[ $rc = 1 ] && grep -q "r.folded.1: a symbolic link owned by uid 65534" dump.err ||
		{ cat dump.err; fail "grind's dump through nobody's link: exit $rc"; }
	[ "$(cat ../victim.dump)" = precious ] || fail "grind's dump written through nobody's link"
	grep -q 'work' r.folded || fail "premise: the profile itself was written"
	echo "ok grind dump"
fi
cd ..
# root's own link is followed: the target written, the link kept
echo old >target
ln -s ../target shared/rootlink
"$TEPHRA" flamegraph -o shared/rootlink a.folded 2>root.err || { cat root.err; fail "root's link"; }
[ -L shared/rootlink ] && [ "$(readlink shared/rootlink)" = ../target ] || fail "root's link replaced"
grep -q '<title>c (2 samples' target || fail "root's link: the graph is not in its target: $(head -c 80 target)"
echo "ok root's link"
