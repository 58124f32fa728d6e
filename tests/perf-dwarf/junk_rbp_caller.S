/* junk_rbp_caller.S: caller(n) calls hot(n) with rbp pointing at two words of junk
 * (0xb7ace770fe30acff) on its own stack.  Its CFI is exact (the CFA is rsp-based, rbp
 * is saved), so an unwinder with this file's CFI walks through; one without it that
 * falls back to frame pointers takes the junk for the next frame pointer and return
 * address.  (tests/perf-dwarf/missing-object) */
	.text
	.globl	caller
	.type	caller, @function
caller:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	subq	$32, %rsp
	.cfi_def_cfa_offset 48
	movabsq	$0xb7ace770fe30acff, %rax
	movq	%rax, (%rsp)
	movq	%rax, 8(%rsp)
	movq	%rsp, %rbp
	call	hot@PLT
	addq	$32, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	caller, .-caller
	.section	.note.GNU-stack,"",@progbits
