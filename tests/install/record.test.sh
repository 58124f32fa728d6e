#!/usr/bin/env bash
# The installed tephra records: make install into a DESTDIR, then from a directory
# outside the source tree `tephra record` runs perf on a program that spends its time
# in burn(), and writes perf.data and a flame graph naming burn; the installed
# `tephra fold` of that perf.data has burn on main's path.
. "$TOP/tests/install/lib.sh"
need_perf_record

install_into "$TEST_TMP/root"
T=$TEST_TMP/root/usr/local/bin/tephra
mkdir work && cd work || exit 1
. "$TOP/tests/install/installed_checks.sh"
installed_record "$T" installed
echo ok
