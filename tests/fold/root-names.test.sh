#!/usr/bin/env bash
# The root frame: comm with spaces as '_', --pid "comm-PID", --tid "comm-PID/TID", and
# how a sample header line is split into comm, pid and tid (stackcollapse-perf.pl).
. "$(dirname "$0")/lib.sh"

# perf script's default output prints the tid only: the pid is then "?".
tid_only='sh  8706   662.052201:     250000 cpu-clock:ppp: \n\t           1462a main+0xa (/bin/sh)\n\nV8 WorkerThread 25607 [002] 4794564.109216: 100 cpu-clock:ppp:\n\t  4005d0 run (/bin/v8)\n\n'
fold_check "comm, spaces to _" "" "$tid_only" 'V8_WorkerThread;run 100\nsh;main 250000\n'
fold_check "--pid without pid column" "--pid" "$tid_only" 'V8_WorkerThread-?;run 100\nsh-?;main 250000\n'
fold_check "--tid without pid column" "--tid" "$tid_only" 'V8_WorkerThread-?/25607;run 100\nsh-?/8706;main 250000\n'
fold_check "--tid wins over --pid" "--pid --tid" "$tid_only" 'V8_WorkerThread-?/25607;run 100\nsh-?/8706;main 250000\n'

# perf script -F comm,pid,tid,...: "PID/TID".
pid_tid='perl  9650/9651  [000]  1216.401639:     7 cpu-clock:ppp: \n\t  163986 memcmp (/lib/libc.so.6)\n\n'
fold_check "pid/tid, default" "" "$pid_tid" 'perl;memcmp 7\n'
fold_check "pid/tid, --pid" "--pid" "$pid_tid" 'perl-9650;memcmp 7\n'
fold_check "pid/tid, --tid" "--tid" "$pid_tid" 'perl-9650/9651;memcmp 7\n'

# A tid of 0 counts as absent: the pid column is taken as the tid.
fold_check "tid 0" "--tid" 'swapper 5/0 1.0: 5 cycles:\n\t1 idle (/x)\n\n' 'swapper-?/5;idle 5\n'

# Only spaces become '_': a tab in the comm stays.
fold_check "tab in comm" "" 'tab\tcomm 12 1.0: 1 cycles:\n\t1 f (/x)\n\n' 'tab\tcomm;f 1\n'

# The comm is the shortest prefix followed by blanks and a number: a comm with a
# number word in it is cut there.
fold_check "number word in comm" "--tid" 'foo 12 bar 345 [000] 1.0: 2 cycles:\n\t1 f (/x)\n\n' 'foo-?/12;f 2\n'

# The comm has at least two bytes: a one-letter comm followed by one space swallows
# the rest of the line up to the period (the script's regex does this too), and with
# two spaces the comm is "a " (so "a_").
fold_check "one-letter comm, one space" "" 'a 123 [000] 1.0: 5 cycles:\n\t1 f (/x)\n\n' 'a_123_[000]_1.0:;f 5\n'
fold_check "one-letter comm, two spaces" "" 'a  123 [000] 1.0: 5 cycles:\n\t1 f (/x)\n\n' 'a_;f 5\n'

# Java: roots starting with "java" strip the leading 'L' of names containing '/'.
java='java 24636/25607 [000] 94564.109216: 7 cycles:\n\t1 Lorg/foo/Bar;.baz(I)V (/tmp/perf-24636.map)\n\t2 Lmain (/x)\n\n'
fold_check "java tidy" "--pid" "$java" 'java-24636;Lmain;org/foo/Bar:.baz 7\n'
fold_check "no java tidy for other roots" "" "${java/java /javx }" 'javx;Lmain;Lorg/foo/Bar:.baz 7\n'

fold_done
