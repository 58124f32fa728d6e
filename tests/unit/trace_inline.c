/* trace_inline.c - the fast paths of tephra_trace_step and tephra_trace_charge run in the
 * caller: a straight-line instruction stepped, and a charge to a started thread, never
 * call into the library.  Linked with -Wl,--wrap=tephra_trace_step
 * -Wl,--wrap=tephra_trace_charge (Makefile), so every call that reaches the library's
 * out-of-line copies is counted here.
 *   step:   a loop of NOPS nops closed by `j f` (one function: the jump leaves the stack
 *           alone) runs ROUNDS times; every instruction is f's.
 *   charge: _start runs 3 instructions, calls f (5 instructions per visit, ROUNDS
 *           charges of 5), f returns.
 * Both profiles are worked out by hand.  Encodings from GNU as (riscv64-linux-gnu-as,
 * .option norvc): 00000013 nop; 800fc06f `j .-16384` (the J-type layout, checked below,
 * gives the loop's own back jump). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tephra/trace.h"
#include "unit/check.h"

#define NOP 0x00000013u
#define F 0x10000u
#define START 0x20000u
#define NOPS 1000
#define ROUNDS 50

static unsigned long out_of_line_steps, out_of_line_charges;

int __real_tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t bits, unsigned len);
int __wrap_tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t bits, unsigned len)
{
	out_of_line_steps++;
	return __real_tephra_trace_step(t, pc, bits, len);
}

void __real_tephra_trace_charge(struct tephra_trace *t, uint64_t pc, uint64_t count);
void __wrap_tephra_trace_charge(struct tephra_trace *t, uint64_t pc, uint64_t count)
{
	out_of_line_charges++;
	__real_tephra_trace_charge(t, pc, count);
}

/* jal x0, OFF (OFF even, within +-1 MiB) */
static uint32_t jump(int32_t off)
{
	uint32_t imm = (uint32_t)off;
	return ((imm >> 20) & 1) << 31 | ((imm >> 1) & 0x3ff) << 21 | ((imm >> 11) & 1) << 20 |
	       ((imm >> 12) & 0xff) << 12 | 0x6f;
}

static void expect_profile(struct tephra_trace *t, const char *want)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_folded(t, f) == 0);
	fclose(f);
	if (strcmp(text, want)) {
		fprintf(stderr, "FAIL: profile\n%s\nwanted\n%s", text, want);
		failures++;
	}
	free(text);
}

int main(void)
{
	CHECK(jump(-16384) == 0x800fc06fu);
	const struct tephra_trace_symbol syms[] = {
		{ F, 4 * (NOPS + 1), "f", TEPHRA_SYM_GLOBAL },
		{ START, 0x100, "_start", TEPHRA_SYM_GLOBAL },
	};
	struct tephra_trace *t = tephra_trace_new(syms, 2, NULL);
	CHECK(t != NULL);
	uint32_t back = jump(-4 * NOPS);
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < NOPS; i++)
			CHECK(tephra_trace_step(t, F + 4 * (uint64_t)i, NOP, 4) == 0);
		CHECK(tephra_trace_step(t, F + 4 * (uint64_t)NOPS, back, 0) == 0);
	}
	if (out_of_line_steps) {
		fprintf(stderr, "FAIL: %lu of %d steps called the library's tephra_trace_step\n",
			out_of_line_steps, ROUNDS * (NOPS + 1));
		failures++;
	}
	char want[64];
	snprintf(want, sizeof(want), "f %d\n", ROUNDS * (NOPS + 1));
	expect_profile(t, want);
	tephra_trace_free(t);

	t = tephra_trace_new(syms, 2, NULL);
	CHECK(t != NULL);
	tephra_trace_charge(t, START, 3); /* the thread's first pc: out of line */
	unsigned long first = out_of_line_charges;
	CHECK(tephra_trace_transfer(t, START + 8, F, TEPHRA_CALL) == 0);
	for (int r = 0; r < ROUNDS; r++)
		tephra_trace_charge(t, F, 5);
	CHECK(tephra_trace_transfer(t, F + 16, START + 12, TEPHRA_RETURN) == 0);
	if (out_of_line_charges != first) {
		fprintf(stderr, "FAIL: %lu of %d charges to a started thread called the library's tephra_trace_charge\n",
			out_of_line_charges - first, ROUNDS);
		failures++;
	}
	snprintf(want, sizeof(want), "_start 3\n_start;f %d\n", 5 * ROUNDS);
	expect_profile(t, want);
	tephra_trace_free(t);
	if (!failures)
		printf("ok\n");
	return failures != 0;
}
