#!/usr/bin/env bash
# The installed tephra records: make install into a DESTDIR, then from a directory
# outside the source tree `tephra record` runs perf on a program that spends its time
# in burn(), and writes perf.data and a flame graph naming burn; the installed
# `tephra fold` of that perf.data has burn on main's path.
. "$TOP/tests/install/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf)"
perf record -q -N -o probe.data -- true >/dev/null 2>&1 ||
	skip "perf record is not permitted here (kernel.perf_event_paranoid?)"
rm -f probe.data

install_into "$TEST_TMP/root"
T=$TEST_TMP/root/usr/local/bin/tephra
mkdir work && cd work || exit 1
. "$TOP/tests/install/installed_checks.sh"
installed_record "$T" installed
echo ok
