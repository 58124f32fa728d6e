#!/usr/bin/env bash
# Per-frame naming rules of stackcollapse-perf.pl: offsets, [unknown] frames, --addrs,
# ';', argument lists, "(anonymous namespace)", Go methods, quotes, '(' names, "->"
# inline chains, and dso texts holding " (".  Frames are listed leaf first in the input
# and root first in the output.
. "$(dirname "$0")/lib.sh"

h='prog 100 1.0: 1 cycles:\n'

# "+0x<lowercase hex>" at the end is removed once; other '+' forms stay.
fold_check "offsets" "" "$h\t1 leaf+0x1f (/bin/a)\n\t2 mid+0xabc (/bin/a)\n\t3 Upper+0x1F (/bin/a)\n\t4 twice+0x10+0x20 (/bin/a)\n\t5 bare+0x (/bin/a)\n\n" \
	'prog;bare+0x;twice+0x10;Upper+0x1F;mid;leaf 1\n'

# An unknown symbol takes its dso's basename; in no map it is [unknown].
unknown="$h\t7f12 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)\n\t0 [unknown] ([unknown])\n\t55aa [unknown] ([vdso])\n\t66 [unknown] (/x/)\n\n"
fold_check "[unknown] frames" "" "$unknown" 'prog;[];[[vdso]];[unknown];[libc.so.6] 1\n'
# --addrs keeps the address (as printed) in every [unknown] frame, dso-named or not.
fold_check "[unknown] frames, --addrs" "--addrs" "$unknown" 'prog;[ <66>];[[vdso] <55aa>];[unknown <0>];[libc.so.6 <7f12>] 1\n'
# --addrs does nothing to known symbols.
fold_check "--addrs, known symbol" "--addrs" "$h\t4005d0 main+0x10 (/bin/a)\n\n" 'prog;main 1\n'

# ';' would split the frame: it becomes ':'.
fold_check "semicolon" "" "$h\t1 a;b;c (/bin/a)\n\n" 'prog;a:b:c 1\n'

# From the first '(' on a name is dropped, except "(anonymous namespace)" and Go
# method names ("pkg.(*T).m": a ".(" with a ")." after it).
fold_check "argument lists" "" "$h\t1 std::vector<int>::push_back(int const&) (/bin/a)\n\t2 operator() (/bin/a)\n\t3 ns::(anonymous namespace)::g(int) (/bin/a)\n\t4 net/http.(*Client).Do (/bin/a)\n\t5 f.(g).h(x) (/bin/a)\n\t6 std::function<void (int)>::operator()(int) const (/bin/a)\n\n" \
	'prog;std::function<void ;f.(g).h(x);net/http.(*Client).Do;ns::(anonymous namespace)::g;operator;std::vector<int>::push_back 1\n'

# A name starting with '(' is dropped (frame and all), even "(anonymous namespace)".
fold_check "leading paren" "" "$h\t1 leaf (/bin/a)\n\t2 (anonymous namespace)::f() (/bin/a)\n\t3 (foo) (/bin/a)\n\t4 main (/bin/a)\n\n" \
	'prog;main;leaf 1\n'

# Quotes are removed (JIT maps name regexes like RegExp:[&<>"'"']).
fold_check "quotes" "" "$h\t1 RegExp:[&<>\"'] (/tmp/perf-7539.map)\n\t2 say\"hi\" (/bin/a)\n\n" 'prog;sayhi;RegExp:[&<>] 1\n'

# "a->b->c" (perf-map-agent's inlined chains) is several frames, outermost first; every
# piece after the first gets _[i] (unless it has it); trailing empty pieces vanish and a
# name made only of "->" is dropped.
fold_check "-> inline chains" "" "$h\t1 outer->mid->inner (/bin/a)\n\t2 a-> (/bin/a)\n\t3 -> (/bin/a)\n\t4 x_[i]->y_[i] (/bin/a)\n\t5 ->z (/bin/a)\n\n" \
	'prog;;z_[i];x_[i];y_[i];a;outer;mid_[i];inner_[i] 1\n'

# The line is split at its last " (" before a ')': a dso printed as
# "/tmp/libx.so (deleted)" moves the split, leaving "[unknown] " as the name.
fold_check "deleted dso" "" "$h\t7f00 [unknown] (/tmp/libx.so (deleted))\n\t7f01 f (/tmp/liby.so (deleted))\n\n" \
	'prog;f ;[unknown]  1\n'

# A frame line without "(dso)" is not a frame line (warned about, skipped).
fold_check "no dso" "" "$h\t1 leaf\n\t2 main (/bin/a)\n\n" 'prog;main 1\n'

# Bytes >= 0x80 pass through unchanged.
fold_check "non-ASCII" "" "$h\t1 caf\xc3\xa9 (/bin/\xc3\xa9)\n\t2 [unknown] (/bin/\xc3\xa9)\n\n" 'prog;[\xc3\xa9];caf\xc3\xa9 1\n'

fold_done
