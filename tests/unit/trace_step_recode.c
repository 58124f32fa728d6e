/* trace_step_recode.c - tephra_trace_step decodes each (pc, encoding) once, and a new
 * encoding at a pc already seen (self-modifying or reloaded code) is decoded again: the
 * instruction at f+4 runs first as a nop, then, rewritten, as a call to g.  A decode
 * cache keyed by pc alone would keep the nop and lose the call.
 * Encodings from GNU as (riscv64-linux-gnu-as, .option norvc):
 *   00000013 nop    7fd000ef jal ra,f+0x1000    ff9ff06f j f    00008067 ret */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tephra/trace.h"
#include "unit/check.h"

#define NOP 0x00000013u
#define CALL_G 0x7fd000efu /* at F + 4: jal ra, F + 0x1000 (= G) */
#define JUMP_F 0xff9ff06fu /* at F + 8: j F */
#define RET 0x00008067u
#define F 0x10000u
#define G 0x11000u

static char *folded(struct tephra_trace *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_folded(t, f) == 0);
	fclose(f);
	return text;
}

/* Runs the loop body of f twice, the second time with f+4 rewritten; REPEAT times the
 * first (so that the nop is decoded and cached long before the rewrite). */
static void run(struct tephra_trace *t, int repeat)
{
	for (int i = 0; i < repeat; i++) {
		CHECK(tephra_trace_step(t, F, NOP, 4) == 0);
		CHECK(tephra_trace_step(t, F + 4, NOP, 4) == 0);
		CHECK(tephra_trace_step(t, F + 8, JUMP_F, 4) == 0);
	}
	CHECK(tephra_trace_step(t, F, NOP, 4) == 0);
	CHECK(tephra_trace_step(t, F + 4, CALL_G, 0) == 0);
	CHECK(tephra_trace_step(t, G, NOP, 0) == 0);
	CHECK(tephra_trace_step(t, G + 4, RET, 0) == 0);
	CHECK(tephra_trace_step(t, F + 8, JUMP_F, 0) == 0);
}

int main(void)
{
	const struct tephra_trace_symbol syms[] = {
		{ F, 0x100, "f", TEPHRA_SYM_GLOBAL },
		{ G, 0x100, "g", TEPHRA_SYM_GLOBAL },
	};
	struct tephra_trace *t = tephra_trace_new(syms, 2, NULL);
	CHECK(t != NULL);
	run(t, 1000);
	/* f: 3 per loop, then f, f+4 (the call belongs to the caller), f+8; g: nop, ret */
	char *text = folded(t);
	const char *want = "f 3003\nf;g 2\n";
	if (strcmp(text, want)) {
		fprintf(stderr, "FAIL: profile\n%s\nwanted\n%s", text, want);
		failures++;
	}
	free(text);
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	CHECK(c.instructions == 3005 && c.calls == 1 && c.returns == 1 && c.underflows == 0);

	/* And back: the nop again after the call was cached; g is not entered a second time. */
	for (int i = 0; i < 3; i++) {
		CHECK(tephra_trace_step(t, F, NOP, 4) == 0);
		CHECK(tephra_trace_step(t, F + 4, NOP, 4) == 0);
		CHECK(tephra_trace_step(t, F + 8, JUMP_F, 4) == 0);
	}
	tephra_trace_counts(t, &c);
	CHECK(c.instructions == 3014 && c.calls == 1 && c.returns == 1);
	text = folded(t);
	want = "f 3012\nf;g 2\n";
	if (strcmp(text, want)) {
		fprintf(stderr, "FAIL: profile after the second rewrite\n%s\nwanted\n%s", text, want);
		failures++;
	}
	free(text);
	tephra_trace_free(t);
	return failures != 0;
}
