#!/usr/bin/env bash
# C++: namespaces, templates, overloads, exceptions (libstdc++, libgcc_s unwinder):
# perf 6.1 prints demangled names without parameter lists.
. "$TOP/tests/symbol/lib.sh"
need_perf
command -v g++ >/dev/null || skip "g++ not installed"
cd "$TEST_TMP"
g++ -O2 -g -fno-omit-frame-pointer -o cxx "$PROGS/cxx_templates.cpp" || fail "build"
record cxx.data ./cxx 1000
compare cxx.data
expect_line cxx.data "geo::Grid<(long|double)>::sum\+0x"
expect_line cxx.data "\(/usr/lib/x86_64-linux-gnu/libstdc\+\+[^)]*\)$|\(.*libstdc\+\+.*\)$"
