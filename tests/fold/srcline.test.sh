#!/usr/bin/env bash
# --srcline (input from `perf script -F+srcline`): the line after each frame is read
# as its source line, loses every "[...]" and outer blanks, and is appended as
# ":file:line" after any annotation.  Frames "[unknown]" in an unknown map have no
# source line; dropped frames ('(' names) read none either.
. "$(dirname "$0")/lib.sh"

in='sh 1 1.0: 5 cycles:\n'
in+='\tffffffff814f9302 up_write+0x32 ([kernel.kallsyms])\n  [kernel.kallsyms][ffffffff814f9302]\n'
in+='\t1568b [unknown] (/usr/bin/dash)\n  dash[1568b]\n'
in+='\t1750d6 __strpbrk_sse42+0xc6 (/usr/lib/libc.so.6)\n  smmintrin.h:686\n'
in+='\t0 [unknown] ([unknown])\n'
in+='\t8c6d check_match+0xad (/lib/ld.so)\n  dl-lookup.c:117\n'
in+='\t1 a->b (/bin/x)\n  a.c:1\n  b.c:2\n'
in+='\t2 (skipped) (/bin/x)\n  c.c:3\n\n'
fold_check "srcline" "--srcline --kernel" "$in" \
	'sh;a:a.c:1;b_[i]:b.c:2;check_match:dl-lookup.c:117;[unknown];__strpbrk_sse42:smmintrin.h:686;[dash]:dash;up_write_[k] 5\n'
# Without --srcline the source lines are unrecognized lines, skipped.
fold_check "srcline lines without --srcline" "--kernel" "$in" \
	'sh;a;b_[i];check_match;[unknown];__strpbrk_sse42;[dash];up_write_[k] 5\n'

# The line after a frame is taken whatever it is: here the blank line that should
# end the first sample, which then runs on into the second.
fold_check "srcline eats a blank line" "--srcline" 'sh 1 1.0: 7 cycles:\n\t1 f (/bin/x)\n\nsh 1 1.0: 9 cycles:\n\t2 g (/bin/x)\n  g.c:9\n\n' \
	'sh;g:g.c:9;f 9\n'

fold_done
