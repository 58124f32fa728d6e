#!/usr/bin/env bash
# Weights and sample boundaries: the period column is summed (not the sample count),
# the event filter, blank lines ending samples, comments, and the output order.
. "$(dirname "$0")/lib.sh"

# Identical stacks sum their periods; a header without a period counts 1, so does a
# period of "0" (the script's "not $period"); "00" is a true string in Perl: 0.
in='sh 1 1.0: 250000 cycles:\n\t1 f (/x)\n\n'
in+='sh 1 1.1: 250000 cycles:\n\t1 f+0x4 (/x)\n\n'
in+='sh 1 1.2: cycles:\n\t1 g (/x)\n\n'
in+='sh 1 1.3: 0 cycles:\n\t1 h (/x)\n\n'
in+='sh 1 1.4: 00 cycles:\n\t1 i (/x)\n\n'
in+='sh 1 1.5: 007 cycles:\n\t1 j (/x)\n\n'
fold_check "period sums" "" "$in" 'sh;f 500000\nsh;g 1\nsh;h 1\nsh;i 0\nsh;j 7\n'

# Only the first event seen is kept by default; --event-filter picks another.  The
# event is the last word before the final ':' ("cpu-clock:ppp" keeps its modifiers).
ev='sh 1 1.0: 5 cycles:\n\t1 a (/x)\n\n'
ev+='sh 1 1.1: 7 instructions:\n\t1 b (/x)\n\n'
ev+='sh 1 1.2: 9 cycles:\n\t1 a (/x)\n\n'
ev+='sh 1 1.3: 11 cpu-clock:ppp: \n\t1 c (/x)\n\n'
fold_check "first event by default" "" "$ev" 'sh;a 14\n'
fold_check "--event-filter" "--event-filter=instructions" "$ev" 'sh;b 7\n'
fold_check "--event-filter with modifiers" "--event-filter=cpu-clock:ppp" "$ev" 'sh;c 11\n'
# A header not ending in "EVENT:" (a tracepoint with fields) has no event: it is never
# filtered and counts 1.
fold_check "tracepoint header" "" 'sh 1 1.0: 5 cycles:\n\t1 a (/x)\n\nsh 1 1.1: 3 sched:sched_switch: prev_comm=x\n\t1 b (/x)\n\n' 'sh;a 5\nsh;b 1\n'

# A sample ends at an empty line.  Without one, the next header keeps the frames read
# so far (its root and period win); a filtered header changes nothing; a sample still
# open at the end of input is dropped.
fold_check "no blank line between samples" "" 'one 1 1.0: 5 cycles:\n\t1 a (/x)\ntwo 2 1.0: 7 cycles:\n\t1 b (/x)\n\n' 'two;b;a 7\n'
fold_check "filtered header inside a sample" "" 'sh 1 1.0: 5 cycles:\n\t1 a (/x)\nsh 1 1.0: 9 instructions:\n\t2 b (/x)\n\n' 'sh;b;a 5\n'
fold_check "open sample at EOF" "" 'sh 1 1.0: 5 cycles:\n\t1 a (/x)\n\nsh 1 1.0: 5 cycles:\n\t1 b (/x)\n' 'sh;a 5\n'
# Frames before any header, and a line of blanks, are skipped (not sample ends).
fold_check "frames before a header" "" '\t1 z (/x)\n\nsh 1 1.0: 5 cycles:\n\t1 a (/x)\n  \n\t1 b (/x)\n\n' 'sh;b;a 5\n'
# A sample with no frame lines is its root alone.
fold_check "no callchain" "" 'sh 1 1.0: 5 cycles:\n\n' 'sh 5\n'

# '#' lines (perf script --header) are skipped, wherever they are.
fold_check "comments" "" '# ========\n# cmdline : /usr/bin/perf record -g ./a\nsh 1 1.0: 5 cycles:\n# inside\n\t1 a (/x)\n\n' 'sh;a 5\n'

# Sorted bytewise by stack text: upper case first, ' ' < ';', bytes >= 0x80 last.
so='bb 1 1.0: 1 cycles:\n\t1 x (/x)\n\n'
so+='BB 1 1.0: 1 cycles:\n\t1 x (/x)\n\n'
so+='bb 1 1.0: 1 cycles:\n\n'
so+='bb 1 1.0: 1 cycles:\n\t1 x y (/x)\n\n'
so+='\xc3\xa9 1 1.0: 1 cycles:\n\n'
so+='bb 1 1.0: 1 cycles:\n\t1 x (/x)\n\t1 A (/x)\n\n'
fold_check "sort order" "" "$so" 'BB;x 1\nbb 1\nbb;A;x 1\nbb;x 1\nbb;x y 1\n\xc3\xa9 1\n'

# CRLF input: the '\r' stays part of the line (as in the script), so "cycles:\r" is
# still a header with an event and frame names keep nothing of it (the dso does).
fold_check "CRLF" "" 'sh 1 1.0: 5 cycles:\r\n\t1 a (/x)\r\n\n' 'sh;a 5\n'

fold_done
