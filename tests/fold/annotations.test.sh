#!/usr/bin/env bash
# Annotations: --kernel (_[k]), --jit (_[j]), --all (both), and _[i] on "->" pieces.
# The dso text decides: kernel = starts with '[' or ends with "vmlinux", and does not
# contain "unknown"; jit = contains "/tmp/perf-<digits>.map".
. "$(dirname "$0")/lib.sh"

in='kk 100 1.0: 1 cycles:\n'
in+='\tffffffff8103ce3b native_safe_halt+0x1 ([kernel.kallsyms])\n'
in+='\t8c3453 tcp_sendmsg (/lib/modules/4.3.0/build/vmlinux)\n'
in+='\t7d8 ipv4_conntrack_local+0x7f8f80b8 ([nf_conntrack_ipv4])\n'
in+='\t7ffd [unknown] ([vdso])\n'
in+='\t0 [unknown] ([unknown])\n'
in+='\t7f72 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)\n'
in+='\t7f73 stub (/opt/x/perf-1.map)\n'
in+='\t400 main (/bin/a)\n\n'

fold_check "no annotation by default" "" "$in" \
	'kk;main;stub;Ljava/io/PrintStream:::print;[unknown];[[vdso]];ipv4_conntrack_local;tcp_sendmsg;native_safe_halt 1\n'
fold_check "--kernel" "--kernel" "$in" \
	'kk;main;stub;Ljava/io/PrintStream:::print;[unknown];[[vdso]]_[k];ipv4_conntrack_local_[k];tcp_sendmsg_[k];native_safe_halt_[k] 1\n'
fold_check "--jit" "--jit" "$in" \
	'kk;main;stub;Ljava/io/PrintStream:::print_[j];[unknown];[[vdso]];ipv4_conntrack_local;tcp_sendmsg;native_safe_halt 1\n'
fold_check "--all" "--all" "$in" \
	'kk;main;stub;Ljava/io/PrintStream:::print_[j];[unknown];[[vdso]]_[k];ipv4_conntrack_local_[k];tcp_sendmsg_[k];native_safe_halt_[k] 1\n'
fold_check "--all --addrs" "--all --addrs" "$in" \
	'kk;main;stub;Ljava/io/PrintStream:::print_[j];[unknown <0>];[[vdso] <7ffd>]_[k];ipv4_conntrack_local_[k];tcp_sendmsg_[k];native_safe_halt_[k] 1\n'

# _[j] is not doubled, _[k] is; an inlined piece gets _[i] instead of _[k]/_[j].
in2='kk 100 1.0: 1 cycles:\n'
in2+='\t1 f_[j] (/tmp/perf-1.map)\n'
in2+='\t2 g_[k] ([kernel.kallsyms])\n'
in2+='\t3 a->b ([kernel.kallsyms])\n'
in2+='\t4 c->d (/tmp/perf-2.map)\n'
in2+='\t5 e (xx/tmp/perf-99.mapyy)\n'
in2+='\t6 h (/tmp/perf-x.map)\n\n'
fold_check "annotation corners" "--all" "$in2" \
	'kk;h;e_[j];c_[j];d_[i];a_[k];b_[i];g_[k]_[k];f_[j] 1\n'

# The root is never annotated; "-> pieces" get _[i] without any option.
fold_check "_[i] without options" "" 'kk 1 1.0: 1 cycles:\n\t1 a->b ([kernel.kallsyms])\n\n' 'kk;a;b_[i] 1\n'

# perf 6.1 prints the inline frames of DWARF callchains as "name+0xoff (inlined)": they
# are ordinary frames to the script (no _[i], and "inlined" is no kernel dso).
inl='kk 1 1.0: 1 cycles:\n\t161df dl_init_cacheinfo+0xb4f (inlined)\n\t161df init_cpu_features+0xb4f (inlined)\n'
inl+='\t1a303 _dl_sysdep_start+0x33 (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n\n'
fold_check "(inlined) frames" "--all" "$inl" 'kk;_dl_sysdep_start;init_cpu_features;dl_init_cacheinfo 1\n'

fold_done
