/* Unit test of the shadow call stack driven by RISC-V instruction streams, through the
 * public C API (include/tephra/trace.h): src/callstack + src/riscv + src/trace.
 *
 * Each case lays out a tiny program (instruction encodings per pc), replays the pcs a
 * real hart would execute (written out by hand from the program), and compares the
 * folded profile with the one worked out by hand in the comment of the case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tephra/trace.h"

/* ---- encoders (the decoder is checked against GNU as in riscv_insn.c) ---- */
#define NOP 0x00000013u
#define ECALL 0x00000073u
#define RA 1
#define T0 5
#define A5 15
static uint32_t jal(unsigned rd, int32_t off)
{
	uint32_t i = (uint32_t)off;
	return (((i >> 20) & 1) << 31) | (((i >> 1) & 0x3ff) << 21) | (((i >> 11) & 1) << 20) |
	       (((i >> 12) & 0xff) << 12) | (rd << 7) | 0x6f;
}
static uint32_t jalr(unsigned rd, unsigned rs1, int32_t imm)
{
	return (((uint32_t)imm & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x67;
}
static uint32_t bne(int32_t off) /* bne a0, a1, off */
{
	uint32_t i = (uint32_t)off;
	return (((i >> 12) & 1) << 31) | (((i >> 5) & 0x3f) << 25) | (11u << 20) | (10u << 15) |
	       (1u << 12) | (((i >> 1) & 0xf) << 8) | (((i >> 11) & 1) << 7) | 0x63;
}
#define RET jalr(0, RA, 0)
static uint32_t cj(unsigned funct3, int32_t off) /* c.j (5) / c.jal (1) */
{
	uint32_t i = (uint32_t)off;
	return (funct3 << 13) | (((i >> 11) & 1) << 12) | (((i >> 4) & 1) << 11) |
	       (((i >> 8) & 3) << 9) | (((i >> 10) & 1) << 8) | (((i >> 6) & 1) << 7) |
	       (((i >> 7) & 1) << 6) | (((i >> 1) & 7) << 3) | (((i >> 5) & 1) << 2) | 1;
}
#define C_NOP 0x0001u
#define C_JR(r) (0x8002u | ((r) << 7))
#define C_JALR(r) (0x9002u | ((r) << 7))

/* ---- a program: pc -> encoding ---- */
struct insn_at {
	uint64_t pc;
	uint32_t bits;
};
struct prog {
	struct insn_at m[64];
	int n;
};
static void put(struct prog *p, uint64_t pc, uint32_t bits)
{
	p->m[p->n++] = (struct insn_at){ pc, bits };
}
static uint32_t at(const struct prog *p, uint64_t pc)
{
	for (int i = 0; i < p->n; i++)
		if (p->m[i].pc == pc)
			return p->m[i].bits;
	fprintf(stderr, "test bug: no instruction at 0x%llx\n", (unsigned long long)pc);
	exit(2);
}
static void run(struct tephra_trace *t, const struct prog *p, const uint64_t *pcs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t b = at(p, pcs[i]);
		tephra_trace_step(t, pcs[i], b, (b & 3) == 3 ? 4 : 2);
	}
}

static int failures;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* TEXT's lines sorted bytewise (the order of folded output is the fold module's
 * business; the tests compare the set of stacks). */
static char *sorted_lines(const char *text)
{
	char *copy = strdup(text), *lines[256];
	size_t n = 0;
	for (char *p = strtok(copy, "\n"); p && n < 256; p = strtok(NULL, "\n"))
		lines[n++] = p;
	qsort(lines, n, sizeof(*lines), cmp_str);
	char *out = calloc(1, strlen(text) + 2);
	for (size_t i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(copy);
	return out;
}

static void expect(const char *name, struct tephra_trace *t, const char *want_text)
{
	char *raw = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&raw, &len);
	tephra_trace_write_folded(t, f);
	fclose(f);
	char *got = sorted_lines(raw), *want = sorted_lines(want_text);
	free(raw);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "FAIL %s\n--- want\n%s--- got\n%s", name, want, got);
		failures++;
	}
	free(got);
	free(want);
}

static void expect_count(const char *name, const char *what, uint64_t got, uint64_t want)
{
	if (got != want) {
		fprintf(stderr, "FAIL %s: %s %llu, want %llu\n", name, what,
			(unsigned long long)got, (unsigned long long)want);
		failures++;
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SYM(s, z, n) { s, z, n, TEPHRA_SYM_GLOBAL }

static const struct tephra_trace_symbol base_syms[] = {
	SYM(0x1000, 0x100, "main"), SYM(0x2000, 0x100, "f"), SYM(0x3000, 0x100, "g"),
};

/* main calls f, f returns: main 5 (1000 1004 1008 100c 1010), main;f 3. */
static void basic_prog(struct prog *p)
{
	put(p, 0x1000, NOP); put(p, 0x1004, NOP); put(p, 0x1008, jal(RA, 0x2000 - 0x1008));
	put(p, 0x100c, NOP); put(p, 0x1010, NOP);
	put(p, 0x2000, NOP); put(p, 0x2004, NOP); put(p, 0x2008, RET);
}
static const uint64_t basic_run[] = { 0x1000, 0x1004, 0x1008, 0x2000, 0x2004, 0x2008, 0x100c, 0x1010 };

static void test_basic(void)
{
	struct prog p = { .n = 0 };
	basic_prog(&p);
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), NULL);
	run(t, &p, basic_run, N(basic_run));
	expect("basic", t, "main 5\nmain;f 3\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("basic", "instructions", c.instructions, 8);
	expect_count("basic", "calls", c.calls, 1);
	expect_count("basic", "returns", c.returns, 1);
	tephra_trace_free(t);
}

/* Branch back-edge, forward jump, jump-table jump and a jump to the function's own start
 * (self tail recursion): all inside main, 11 instructions, no stack change. */
static void test_local_jumps(void)
{
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, bne(-4)); put(&p, 0x1008, jal(0, 8));
	put(&p, 0x1010, jalr(0, A5, 0)); put(&p, 0x1018, NOP); put(&p, 0x101c, jal(0, -0x1c));
	static const uint64_t r[] = { 0x1000, 0x1004, 0x1000, 0x1004, 0x1008, 0x1010, 0x1018,
				      0x101c, 0x1000, 0x1004, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), NULL);
	run(t, &p, r, N(r));
	expect("local jumps", t, "main 11\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("local jumps", "tail calls", c.tail_calls, 0);
	tephra_trace_free(t);
}

/* main calls f, f tail-calls g (j g), g returns to main:
 * main 3, main;f 2, main;g 2 (nested: main;f;g 2). */
static void tail_prog(struct prog *p)
{
	put(p, 0x1000, NOP); put(p, 0x1004, jal(RA, 0xffc)); put(p, 0x1008, NOP);
	put(p, 0x2000, NOP); put(p, 0x2004, jal(0, 0x3000 - 0x2004));
	put(p, 0x3000, NOP); put(p, 0x3004, RET);
}
static void test_tail_call(void)
{
	static const uint64_t r[] = { 0x1000, 0x1004, 0x2000, 0x2004, 0x3000, 0x3004, 0x1008 };
	for (int nest = 0; nest < 2; nest++) {
		struct prog p = { .n = 0 };
		tail_prog(&p);
		struct tephra_trace_options o = { 64, nest ? TEPHRA_TRACE_NEST_TAIL : 0 };
		struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), &o);
		run(t, &p, r, N(r));
		expect(nest ? "tail call nested" : "tail call", t,
		       nest ? "main 3\nmain;f 2\nmain;f;g 2\n" : "main 3\nmain;f 2\nmain;g 2\n");
		struct tephra_trace_counts c;
		tephra_trace_counts(t, &c);
		expect_count("tail call", "tail calls", c.tail_calls, 1);
		expect_count("tail call", "returns", c.returns, 1);
		tephra_trace_free(t);
	}
}

/* f and g tail-call each other 5 times, then g returns.  f runs 3 x 2 instructions, g
 * 2 x 3 + 3; never nests: main;f 6, main;g 9 (nested mode: main;f;g 9, no deeper). */
static void test_mutual_tail_recursion(void)
{
	static const uint64_t r[] = { 0x1000, 0x1004, 0x2000, 0x2004, 0x3000, 0x3004, 0x3008,
				      0x2000, 0x2004, 0x3000, 0x3004, 0x3008, 0x2000, 0x2004,
				      0x3000, 0x3004, 0x300c, 0x1008 };
	for (int nest = 0; nest < 2; nest++) {
		struct prog p = { .n = 0 };
		put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0xffc)); put(&p, 0x1008, NOP);
		put(&p, 0x2000, NOP); put(&p, 0x2004, jal(0, 0x1000 - 4));
		put(&p, 0x3000, NOP); put(&p, 0x3004, bne(8)); put(&p, 0x3008, jal(0, -0x1008));
		put(&p, 0x300c, RET);
		struct tephra_trace_options o = { 64, nest ? TEPHRA_TRACE_NEST_TAIL : 0 };
		struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), &o);
		run(t, &p, r, N(r));
		expect(nest ? "mutual tail recursion nested" : "mutual tail recursion", t,
		       nest ? "main 3\nmain;f 6\nmain;f;g 9\n" : "main 3\nmain;f 6\nmain;g 9\n");
		struct tephra_trace_counts c;
		tephra_trace_counts(t, &c);
		expect_count("mutual tail recursion", "tail calls", c.tail_calls, 5);
		expect_count("mutual tail recursion", "underflows", c.underflows, 0);
		tephra_trace_free(t);
	}
}

/* f recurses to depth 3: main 3, main;f 3, main;f;f 3, main;f;f;f 2. */
static void test_recursion(void)
{
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0xffc)); put(&p, 0x1008, NOP);
	put(&p, 0x2000, bne(0xc)); put(&p, 0x2004, jal(RA, -4)); put(&p, 0x2008, RET);
	put(&p, 0x200c, RET);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x2000, 0x2004, 0x2000, 0x2004, 0x2000,
				      0x200c, 0x2008, 0x2008, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), NULL);
	run(t, &p, r, N(r));
	expect("recursion", t, "main 3\nmain;f 3\nmain;f;f 3\nmain;f;f;f 2\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("recursion", "calls", c.calls, 3);
	expect_count("recursion", "returns", c.returns, 3);
	expect_count("recursion", "non-local pops", c.nonlocal_pops, 0);
	tephra_trace_free(t);
}

/* Zero-size symbols a (0x4000) and b (0x4010) end at the next symbol: jumps inside a
 * stay, the jump from 0x400c to 0x4010 is a tail call to b.  main 3, main;a 6, main;b 2. */
static void test_zero_size(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x4000, 0, "a"), SYM(0x4010, 0, "b"),
		SYM(0x4020, 0x10, "c"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0x3000 - 4)); put(&p, 0x1008, NOP);
	put(&p, 0x4000, NOP); put(&p, 0x4004, bne(-4)); put(&p, 0x4008, jal(0, 4));
	put(&p, 0x400c, jal(0, 4)); put(&p, 0x4010, NOP); put(&p, 0x4014, RET);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x4000, 0x4004, 0x4000, 0x4004, 0x4008,
				      0x400c, 0x4010, 0x4014, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, r, N(r));
	expect("zero-size symbols", t, "main 3\nmain;a 6\nmain;b 2\n");
	tephra_trace_free(t);
}

/* A zero-size symbol inside the sized f is a label: the loop through it stays in f.
 * main 3, main;f 6, no tail calls. */
static void test_label_inside_sized(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x2000, 0x10, "f"), SYM(0x2004, 0, "f_label"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0xffc)); put(&p, 0x1008, NOP);
	put(&p, 0x2000, NOP); put(&p, 0x2004, NOP); put(&p, 0x2008, bne(-4)); put(&p, 0x200c, RET);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x2000, 0x2004, 0x2008, 0x2004, 0x2008,
				      0x200c, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, r, N(r));
	expect("label inside a sized symbol", t, "main 3\nmain;f 6\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("label inside a sized symbol", "tail calls", c.tail_calls, 0);
	tephra_trace_free(t);
}

/* inner (0x5010, 16 bytes) nested in outer (0x5000, 64 bytes): outer -> inner and
 * inner -> outer's rest are tail calls.  main 3, main;inner 2, main;outer 3. */
static void test_nested_symbols(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x5000, 0x40, "outer"), SYM(0x5010, 0x10, "inner"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0x4000 - 4)); put(&p, 0x1008, NOP);
	put(&p, 0x5000, NOP); put(&p, 0x5004, jal(0, 0xc)); put(&p, 0x5010, NOP);
	put(&p, 0x5014, jal(0, 0xc)); put(&p, 0x5020, RET);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x5000, 0x5004, 0x5010, 0x5014, 0x5020, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, r, N(r));
	expect("nested symbols", t, "main 3\nmain;inner 2\nmain;outer 3\n");
	tephra_trace_free(t);
}

/* -msave-restore millicode: f calls __riscv_save_0 through t0 (jal t0), which returns
 * with jr t0; f leaves with a tail jump to __riscv_restore_0, which returns to main.
 * main 3, main;__riscv_restore_0 2, main;f 3, main;f;__riscv_save_0 2. */
static void test_millicode(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x2000, 0x100, "f"),
		SYM(0x6000, 0x10, "__riscv_save_0"), SYM(0x6100, 0x10, "__riscv_restore_0"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0x1000 - 4)); put(&p, 0x1008, NOP);
	put(&p, 0x2000, jal(T0, 0x4000)); put(&p, 0x2004, NOP); put(&p, 0x2008, jal(0, 0x40f8));
	put(&p, 0x6000, NOP); put(&p, 0x6004, jalr(0, T0, 0));
	put(&p, 0x6100, NOP); put(&p, 0x6104, RET);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x2000, 0x6000, 0x6004, 0x2004, 0x2008,
				      0x6100, 0x6104, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, r, N(r));
	expect("millicode", t,
	       "main 3\nmain;__riscv_restore_0 2\nmain;f 3\nmain;f;__riscv_save_0 2\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("millicode", "underflows", c.underflows, 0);
	tephra_trace_free(t);
}

/* RV32C: c.jal f, f c.j g (tail call), g c.jr ra; then c.jalr a5 to g, c.jr ra.
 * main 4, main;f 2, main;g 2 + 2. */
static void test_compressed(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x1100, 0x100, "f"), SYM(0x1200, 0x100, "g"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, C_NOP); put(&p, 0x1002, cj(1, 0xfe)); put(&p, 0x1004, C_JALR(A5));
	put(&p, 0x1006, C_NOP);
	put(&p, 0x1100, C_NOP); put(&p, 0x1102, cj(5, 0xfe));
	put(&p, 0x1200, C_NOP); put(&p, 0x1202, C_JR(RA));
	static const uint64_t r[] = { 0x1000, 0x1002, 0x1100, 0x1102, 0x1200, 0x1202, 0x1004,
				      0x1200, 0x1202, 0x1006 };
	struct tephra_trace_options o = { 32, 0 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), &o);
	run(t, &p, r, N(r));
	expect("compressed", t, "main 4\nmain;f 2\nmain;g 4\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("compressed", "calls", c.calls, 2);
	expect_count("compressed", "tail calls", c.tail_calls, 1);
	expect_count("compressed", "returns", c.returns, 2);
	tephra_trace_free(t);
}

/* setjmp in main, rec recurses 4 deep, calls longjmp, whose ret lands after the setjmp
 * call in main (no frame has that return address: main is found by function).
 * main 6, main;setjmp 2, main;rec 2, ;rec 2, ;rec 2, ;rec 2, ...;rec;longjmp 2;
 * 4 frames popped beyond the top. */
static void test_longjmp(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x2000, 0x100, "rec"), SYM(0x3000, 0x100, "setjmp"),
		SYM(0x4000, 0x100, "longjmp"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0x1ffc)); put(&p, 0x1008, bne(0xc));
	put(&p, 0x100c, jal(RA, 0xff4)); put(&p, 0x1010, NOP); put(&p, 0x1014, NOP);
	put(&p, 0x3000, NOP); put(&p, 0x3004, RET);
	put(&p, 0x2000, bne(0xc)); put(&p, 0x2004, jal(RA, -4)); put(&p, 0x2008, RET);
	put(&p, 0x200c, jal(RA, 0x1ff4));
	put(&p, 0x4000, NOP); put(&p, 0x4004, RET);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x3000, 0x3004, 0x1008, 0x100c,
				      0x2000, 0x2004, 0x2000, 0x2004, 0x2000, 0x2004,
				      0x2000, 0x200c, 0x4000, 0x4004, 0x1008, 0x1014 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, r, N(r));
	expect("longjmp", t,
	       "main 6\nmain;rec 2\nmain;rec;rec 2\nmain;rec;rec;rec 2\nmain;rec;rec;rec;rec 2\n"
	       "main;rec;rec;rec;rec;longjmp 2\nmain;setjmp 2\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("longjmp", "non-local pops", c.nonlocal_pops, 4);
	expect_count("longjmp", "underflows", c.underflows, 0);
	tephra_trace_free(t);
}

/* A signal arrives after 0x1004: handler runs (2), returns into the trampoline at
 * 0x7000 (no symbol), whose ecall (rt_sigreturn) resumes main at 0x1008.
 * main 3, main;[signal] 2, main;[signal];handler 2. */
static void test_signal(void)
{
	static const struct tephra_trace_symbol s[] = {
		SYM(0x1000, 0x100, "main"), SYM(0x6000, 0x100, "handler"),
	};
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, NOP); put(&p, 0x1008, NOP);
	put(&p, 0x6000, NOP); put(&p, 0x6004, RET);
	put(&p, 0x7000, NOP); put(&p, 0x7004, ECALL);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x6000, 0x6004, 0x7000, 0x7004, 0x1008 };
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, r, N(r));
	expect("signal", t, "main 3\nmain;[signal] 2\nmain;[signal];handler 2\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("signal", "signals", c.signals, 1);
	expect_count("signal", "underflows", c.underflows, 0);
	tephra_trace_free(t);
}

/* A return with no frame to return to: counted, re-rooted, no crash.
 * [unknown] 1 (0x9000 has no symbol), main 1. */
static void test_underflow(void)
{
	struct prog p = { .n = 0 };
	put(&p, 0x1000, RET); put(&p, 0x9000, NOP);
	static const uint64_t r[] = { 0x1000, 0x9000 };
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), NULL);
	run(t, &p, r, N(r));
	expect("underflow", t, "[unknown] 1\nmain 1\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("underflow", "underflows", c.underflows, 1);
	tephra_trace_free(t);
}

/* Aliases: global over weak over local whatever their order. */
static void test_aliases(void)
{
	static const struct tephra_trace_symbol s[] = {
		{ 0x1000, 0x100, "loc_alias", TEPHRA_SYM_LOCAL },
		{ 0x1000, 0x100, "weak_alias", TEPHRA_SYM_WEAK },
		{ 0x1000, 0x100, "main", TEPHRA_SYM_GLOBAL },
		{ 0x2000, 0x100, "f_local", TEPHRA_SYM_LOCAL },
		{ 0x2000, 0x100, "f_weak", TEPHRA_SYM_WEAK },
	};
	struct prog p = { .n = 0 };
	basic_prog(&p);
	struct tephra_trace *t = tephra_trace_new(s, N(s), NULL);
	run(t, &p, basic_run, N(basic_run));
	expect("aliases", t, "main 5\nmain;f_weak 3\n");
	tephra_trace_free(t);
}

/* Raw mode: callers show the call site, leaves the executing pc. */
static void test_raw(void)
{
	struct prog p = { .n = 0 };
	basic_prog(&p);
	struct tephra_trace_options o = { 64, TEPHRA_TRACE_RAW };
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), &o);
	run(t, &p, basic_run, N(basic_run));
	expect("raw", t,
	       "0x1000 1\n0x1004 1\n0x1008 1\n0x1008;0x2000 1\n0x1008;0x2004 1\n"
	       "0x1008;0x2008 1\n0x100c 1\n0x1010 1\n");
	tephra_trace_free(t);
}

/* jalr t0, 0(ra) (both link registers, different): pop, then push.  f "returns" to
 * main and main now runs as if called from f (coroutine swap); main's jr t0 returns
 * into f's code, which is charged to main again (no frame for f is left).
 * main 3 (1000 1004 2008), main;f 2, main;main 2 (1008 100c). */
static void test_pop_push(void)
{
	struct prog p = { .n = 0 };
	put(&p, 0x1000, NOP); put(&p, 0x1004, jal(RA, 0xffc));
	put(&p, 0x1008, NOP); put(&p, 0x100c, jalr(0, T0, 0));
	put(&p, 0x2000, NOP); put(&p, 0x2004, jalr(T0, RA, 0)); put(&p, 0x2008, NOP);
	static const uint64_t r[] = { 0x1000, 0x1004, 0x2000, 0x2004, 0x1008, 0x100c, 0x2008 };
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), NULL);
	run(t, &p, r, N(r));
	expect("pop-push", t, "main 3\nmain;f 2\nmain;main 2\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("pop-push", "calls", c.calls, 2);
	expect_count("pop-push", "returns", c.returns, 2);
	expect_count("pop-push", "underflows", c.underflows, 0);
	tephra_trace_free(t);
}

/* Hosts that know their transfers, and threads: thread 2 is its own stack. */
static void test_transfer_api(void)
{
	struct tephra_trace *t = tephra_trace_new(base_syms, N(base_syms), NULL);
	tephra_trace_transfer(t, 0, 0x1000, TEPHRA_TAIL_CALL); /* enter main */
	tephra_trace_charge(t, 0x1000, 10);
	tephra_trace_transfer(t, 0x1010, 0x2000, TEPHRA_CALL);
	tephra_trace_charge(t, 0x2000, 5);
	tephra_trace_transfer(t, 0x2004, 0x3000, TEPHRA_SIGNAL + 10);
	tephra_trace_charge(t, 0x3000, 2);
	tephra_trace_transfer(t, 0x3004, 0x7000, TEPHRA_SIGRETURN);
	tephra_trace_thread(t, 2);
	tephra_trace_transfer(t, 0, 0x3000, TEPHRA_TAIL_CALL);
	tephra_trace_charge(t, 0x3000, 7);
	tephra_trace_thread(t, 0);
	tephra_trace_transfer(t, 0x2008, 0x1014, TEPHRA_RETURN);
	tephra_trace_charge(t, 0x1014, 1);
	expect("transfer api", t, "g 7\nmain 11\nmain;f 5\nmain;f;[signal 10];g 2\n");
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	expect_count("transfer api", "returns", c.returns, 1);
	if (tephra_trace_transfer(t, 0, 0, 42) != -1 || tephra_trace_transfer(t, 0, 0, 200) != -1) {
		fprintf(stderr, "FAIL transfer api: unknown kind accepted\n");
		failures++;
	}
	tephra_trace_free(t);
}

int main(void)
{
	test_basic();
	test_local_jumps();
	test_tail_call();
	test_mutual_tail_recursion();
	test_recursion();
	test_zero_size();
	test_nested_symbols();
	test_label_inside_sized();
	test_millicode();
	test_compressed();
	test_longjmp();
	test_signal();
	test_underflow();
	test_aliases();
	test_raw();
	test_pop_push();
	test_transfer_api();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures != 0;
}
