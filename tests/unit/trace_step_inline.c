/* trace_step_inline.c - a straight-line instruction stepped through tephra_trace_step
 * never calls into the library: the header's inline fast path counts it in the caller.
 * Linked with -Wl,--wrap=tephra_trace_step (Makefile), so every call that reaches the
 * library's out-of-line tephra_trace_step is counted here.  A loop of NOPS nops closed
 * by `j f` (one function: the jump leaves the stack alone) runs ROUNDS times; the
 * profile is worked out by hand: every instruction in f.
 * Encodings from GNU as (riscv64-linux-gnu-as, .option norvc):
 *   00000013 nop    j f from f + 4 * NOPS: 0x800fc06f for NOPS = 4096 is `j -16384`; the
 *   offset here is built by hand from the J-type layout (imm[20|10:1|11|19:12], rd 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tephra/trace.h"
#include "unit/check.h"

#define NOP 0x00000013u
#define F 0x10000u
#define NOPS 1000
#define ROUNDS 50

static unsigned long out_of_line_steps;

int __real_tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t bits, unsigned len);
int __wrap_tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t bits, unsigned len)
{
	out_of_line_steps++;
	return __real_tephra_trace_step(t, pc, bits, len);
}

/* jal x0, OFF (OFF even, within +-1 MiB) */
static uint32_t jump(int32_t off)
{
	uint32_t imm = (uint32_t)off;
	return ((imm >> 20) & 1) << 31 | ((imm >> 1) & 0x3ff) << 21 | ((imm >> 11) & 1) << 20 |
	       ((imm >> 12) & 0xff) << 12 | 0x6f;
}

int main(void)
{
	CHECK(jump(-16384) == 0x800fc06fu); /* GNU as: `j .-16384` */
	const struct tephra_trace_symbol sym = { F, 4 * (NOPS + 1), "f", TEPHRA_SYM_GLOBAL };
	struct tephra_trace *t = tephra_trace_new(&sym, 1, NULL);
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
		return 1;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_folded(t, f) == 0);
	fclose(f);
	char want[64];
	snprintf(want, sizeof(want), "f %d\n", ROUNDS * (NOPS + 1));
	if (strcmp(text, want)) {
		fprintf(stderr, "FAIL: profile\n%s\nwanted\n%s", text, want);
		return 1;
	}
	free(text);
	tephra_trace_free(t);
	printf("ok\n");
	return 0;
}
