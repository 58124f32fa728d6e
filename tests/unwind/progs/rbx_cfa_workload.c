/* rbx_cfa_workload.c - for tests/unwind/perf_oracle_rbx_cfa.test.sh (x86_64 only).
 *
 * The case of ld.so's _dl_runtime_resolve_xsavec -> _dl_fixup, made permanent: a caller
 * whose CFA is computed from rbx (rbx_cfa_frame: CFA = rbx + 16, as the resolver's
 * CFA = rbx + 32) calls a leaf whose CFI has no rule for rbx (spin_without_rbx_rule, as
 * _dl_fixup before it pushes rbx).  The SysV x86_64 psABI makes rbx callee-saved, so
 * without a rule the leaf's caller has the leaf's rbx; libdw's default rules (elfutils
 * 0.188) leave rbx undefined instead, and the caller's CFA could not be computed.
 * Nearly every sample lands in the leaf's loop.
 * Usage: rbx_cfa_workload [MILLISECONDS]  (default 300). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

uint64_t spin_without_rbx_rule(uint64_t n);
uint64_t rbx_cfa_frame(uint64_t n);

/* The CFI is hand-written: .cfi_startproc gives CFA = rsp + 8 and the return address at
 * CFA - 8, and nothing is said of rbx in either function but where rbx_cfa_frame saves it. */
__asm__(".text\n"
	".globl spin_without_rbx_rule\n"
	".type spin_without_rbx_rule, @function\n"
	"spin_without_rbx_rule:\n"
	".cfi_startproc\n"
	"  movq %rdi, %rax\n"
	"1: subq $1, %rax\n"
	"  jnz 1b\n"
	"  movq %rdi, %rax\n"
	"  ret\n"
	".cfi_endproc\n"
	".size spin_without_rbx_rule, .-spin_without_rbx_rule\n"
	".globl rbx_cfa_frame\n"
	".type rbx_cfa_frame, @function\n"
	"rbx_cfa_frame:\n"
	".cfi_startproc\n"
	"  pushq %rbx\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbx, -16\n"
	"  movq %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"  call spin_without_rbx_rule\n"
	"  movq %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"  popq %rbx\n"
	".cfi_restore %rbx\n"
	".cfi_def_cfa_offset 8\n"
	"  ret\n"
	".cfi_endproc\n"
	".size rbx_cfa_frame, .-rbx_cfa_frame\n");

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int main(int argc, char **argv)
{
	uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 300, end = now_ms() + ms, sum = 0;

	while (now_ms() < end)
		sum += rbx_cfa_frame(1000000);
	printf("%llu\n", (unsigned long long)sum);
	return 0;
}
