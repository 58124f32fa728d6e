/* mangled.S - functions with C++ and Rust-style mangled names: profiles show them
 * demangled as perf does (tests/emu/mangled.test.sh). */
	.option norvc
	.text
	.globl _start
	.type _start, @function
_start:
	jal ra, _ZN3foo3barEv
	jal ra, _ZN5tools9calculateEii
	li a0, 0
	li a7, 93
	ecall
	.size _start, .-_start

	.type _ZN3foo3barEv, @function
_ZN3foo3barEv:
	nop
	ret
	.size _ZN3foo3barEv, .-_ZN3foo3barEv

	.type _ZN5tools9calculateEii, @function
_ZN5tools9calculateEii:
	nop
	nop
	ret
	.size _ZN5tools9calculateEii, .-_ZN5tools9calculateEii
