/* A toy RISC-V emulator using the public C API (include/tephra/trace.h) as an embedder
 * would: it runs a hand-assembled RV64I program (addi, jal, jalr, bne, ecall) and feeds
 * what it executes to tephra, once per instruction (tephra_trace_step) and once as a
 * host that knows its own transfers (tephra_trace_charge per straight-line run, then
 * tephra_trace_transfer), charging per run and per instruction.
 *
 * The oracle is the emulator itself: it counts every instruction it executes, and per
 * function (by its own layout of the program) how many of them ran there.  The folded
 * profile must have the same total, the same self count per leaf function, and every
 * stack must start at _start, the function of the first pc; so must the callgrind
 * file tephra_trace_write_profile writes (summary, self cost per function). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tephra/trace.h"
#include "unit/check.h"

enum { ZERO = 0, RA = 1, T0 = 5, T1 = 6, S0 = 8, S1 = 9, A0 = 10, A7 = 17 };

static uint32_t addi(unsigned rd, unsigned rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x13;
}
static uint32_t jal(unsigned rd, int32_t off)
{
	uint32_t i = (uint32_t)off;
	return ((i >> 20) & 1) << 31 | ((i >> 1) & 0x3ff) << 21 | ((i >> 11) & 1) << 20 |
	       ((i >> 12) & 0xff) << 12 | rd << 7 | 0x6f;
}
static uint32_t jalr(unsigned rd, unsigned rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x67;
}
static uint32_t bne(unsigned rs1, unsigned rs2, int32_t off)
{
	uint32_t i = (uint32_t)off;
	return ((i >> 12) & 1) << 31 | ((i >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | 1u << 12 |
	       ((i >> 1) & 0xf) << 8 | ((i >> 11) & 1) << 7 | 0x63;
}
#define ECALL 0x00000073u

/* The program: _start calls main, main calls work 3 times in a loop, then tail-calls
 * finish, which returns to _start; _start exits. */
#define BASE 0x10000u
#define F_START 0x10000u
#define F_MAIN 0x10014u
#define F_WORK 0x1002cu
#define F_FINISH 0x10034u
#define END 0x1003cu
static uint32_t mem[(END - BASE) / 4];

static void put(uint64_t pc, uint32_t bits)
{
	mem[(pc - BASE) / 4] = bits;
}

static void assemble(void)
{
	put(0x10000, addi(A0, ZERO, 3));              /* _start */
	put(0x10004, addi(S0, ZERO, 0));
	put(0x10008, jal(RA, F_MAIN - 0x10008));
	put(0x1000c, addi(A7, ZERO, 93));
	put(0x10010, ECALL);
	put(0x10014, addi(S1, RA, 0));                /* main */
	put(0x10018, jal(RA, F_WORK - 0x10018));      /* loop: */
	put(0x1001c, addi(A0, A0, -1));
	put(0x10020, bne(A0, ZERO, 0x10018 - 0x10020));
	put(0x10024, addi(RA, S1, 0));
	put(0x10028, jal(ZERO, F_FINISH - 0x10028));  /* tail call */
	put(0x1002c, addi(T0, T0, 1));                /* work */
	put(0x10030, jalr(ZERO, RA, 0));
	put(0x10034, addi(T1, T1, 1));                /* finish */
	put(0x10038, jalr(ZERO, RA, 0));
}

static const struct tephra_trace_symbol syms[] = {
	{ F_START, F_MAIN - F_START, "_start", TEPHRA_SYM_GLOBAL },
	{ F_MAIN, F_WORK - F_MAIN, "main", TEPHRA_SYM_GLOBAL },
	{ F_WORK, F_FINISH - F_WORK, "work", TEPHRA_SYM_GLOBAL },
	{ F_FINISH, END - F_FINISH, "finish", TEPHRA_SYM_GLOBAL },
};
#define NSYMS (sizeof(syms) / sizeof(syms[0]))

/* The emulator's own attribution of a pc to a function (its layout). */
static size_t func_index(uint64_t pc)
{
	for (size_t i = 0; i < NSYMS; i++)
		if (pc >= syms[i].start && pc < syms[i].start + syms[i].size)
			return i;
	fprintf(stderr, "toy emulator: pc 0x%llx outside the program\n", (unsigned long long)pc);
	exit(2);
}

enum feed { FEED_STEP, FEED_CHARGE_RUNS, FEED_CHARGE_EACH };

struct toy {
	uint64_t x[32], pc;
	uint64_t executed;            /* instructions run */
	uint64_t per_func[NSYMS];     /* of which in each function */
	struct tephra_trace *t;
	enum feed feed;
	uint64_t run_pc, run_len;     /* straight-line run not charged yet (FEED_CHARGE_RUNS) */
};

static void charge_run(struct toy *m)
{
	if (m->run_len)
		tephra_trace_charge(m->t, m->run_pc, m->run_len);
	m->run_len = 0;
}

/* Reports the transfer FROM -> TO of KIND after charging what ran before it (the
 * transfer instruction included: it belongs to the code that executes it). */
static void transfer(struct toy *m, uint64_t from, uint64_t to, int kind)
{
	if (m->feed == FEED_STEP)
		return;
	charge_run(m);
	CHECK(tephra_trace_transfer(m->t, from, to, kind) == 0);
}

/* Runs the program to its exit; returns the exit code. */
static int run(struct toy *m)
{
	m->pc = BASE;
	for (;;) {
		uint64_t pc = m->pc;
		if (pc < BASE || pc >= END || (pc & 3)) {
			fprintf(stderr, "toy emulator: bad pc 0x%llx\n", (unsigned long long)pc);
			exit(2);
		}
		uint32_t insn = mem[(pc - BASE) / 4];
		m->executed++;
		m->per_func[func_index(pc)]++;
		if (m->feed == FEED_STEP) {
			CHECK(tephra_trace_step(m->t, pc, insn, 4) == 0);
		} else if (m->feed == FEED_CHARGE_EACH) {
			tephra_trace_charge(m->t, pc, 1);
		} else {
			if (!m->run_len)
				m->run_pc = pc;
			m->run_len++;
		}
		unsigned rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31;
		int64_t imm_i = (int32_t)insn >> 20;
		uint64_t next = pc + 4;
		switch (insn & 0x7f) {
		case 0x13: /* addi */
			m->x[rd] = m->x[rs1] + (uint64_t)imm_i;
			break;
		case 0x6f: { /* jal */
			int32_t off = (int32_t)((insn & 0x80000000u) >> 11 | (insn & 0xff000u) |
						(insn >> 9 & 0x800u) | (insn >> 20 & 0x7feu));
			off = (int32_t)((uint32_t)off << 11) >> 11; /* sign-extend 21 bits */
			next = pc + (uint64_t)(int64_t)off;
			m->x[rd] = pc + 4;
			transfer(m, pc, next, rd == RA ? TEPHRA_CALL : TEPHRA_JUMP);
			break;
		}
		case 0x67: /* jalr */
			next = (m->x[rs1] + (uint64_t)imm_i) & ~(uint64_t)1;
			m->x[rd] = pc + 4;
			transfer(m, pc, next,
				 rd == RA ? TEPHRA_CALL : rs1 == RA ? TEPHRA_RETURN : TEPHRA_JUMP);
			break;
		case 0x63: { /* bne */
			int32_t off = (int32_t)((insn & 0x80000000u) >> 19 | (insn & 0x80u) << 4 |
						(insn >> 20 & 0x7e0u) | (insn >> 7 & 0x1eu));
			off = (int32_t)((uint32_t)off << 19) >> 19; /* sign-extend 13 bits */
			if (m->x[rs1] != m->x[rs2]) {
				next = pc + (uint64_t)(int64_t)off;
				transfer(m, pc, next, TEPHRA_JUMP);
			}
			break;
		}
		case 0x73: /* ecall: only exit */
			if (m->x[A7] == 93) {
				charge_run(m);
				return (int)m->x[A0];
			}
			break;
		default:
			fprintf(stderr, "toy emulator: unknown instruction 0x%08x\n", insn);
			exit(2);
		}
		m->x[0] = 0;
		m->pc = next;
	}
}

/* Checks the folded profile of M's tracer against M's own counts. */
static void check_profile(const char *what, struct toy *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_folded(m->t, f) == 0);
	fclose(f);
	uint64_t total = 0, leaf[NSYMS] = { 0 };
	int lines = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		lines++;
		char *sp = strrchr(line, ' ');
		CHECK(sp != NULL);
		if (!sp)
			continue;
		*sp = 0;
		uint64_t n = strtoull(sp + 1, NULL, 10);
		total += n;
		if (strncmp(line, "_start", 6) != 0 || (line[6] != 0 && line[6] != ';')) {
			fprintf(stderr, "FAIL %s: stack '%s' does not start at _start\n", what, line);
			failures++;
		}
		const char *leaf_name = strrchr(line, ';') ? strrchr(line, ';') + 1 : line;
		size_t i = 0;
		while (i < NSYMS && strcmp(syms[i].name, leaf_name))
			i++;
		if (i == NSYMS) {
			fprintf(stderr, "FAIL %s: leaf frame '%s' is no function\n", what, leaf_name);
			failures++;
		} else {
			leaf[i] += n;
		}
	}
	free(text);
	CHECK(lines > 0);
	if (total != m->executed) {
		fprintf(stderr, "FAIL %s: profile total %llu, the emulator ran %llu\n", what,
			(unsigned long long)total, (unsigned long long)m->executed);
		failures++;
	}
	for (size_t i = 0; i < NSYMS; i++) {
		if (leaf[i] != m->per_func[i]) {
			fprintf(stderr, "FAIL %s: %s has %llu in the profile, the emulator ran %llu\n",
				what, syms[i].name, (unsigned long long)leaf[i],
				(unsigned long long)m->per_func[i]);
			failures++;
		}
	}
	struct tephra_trace_counts c;
	tephra_trace_counts(m->t, &c);
	if (c.instructions != m->executed || c.underflows != 0) {
		fprintf(stderr, "FAIL %s: counters say %llu instructions, %llu underflows\n", what,
			(unsigned long long)c.instructions, (unsigned long long)c.underflows);
		failures++;
	}
}

/* Checks M's profile as tephra_trace_write_profile writes it: the callgrind file's
 * summary and each function's self cost (the cost lines not following a calls= line)
 * are M's own counts; pprof is gzip, speedscope JSON, an unknown format refused. */
static void check_export(const char *what, struct toy *m)
{
	char *text = NULL, *names[64] = { 0 };
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_profile(m->t, "callgrind", f) == 0);
	fclose(f);
	uint64_t summary = 0, self[NSYMS] = { 0 };
	int events_ir = 0, after_calls = 0;
	const char *fn = NULL;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned id;
		int used = 0;
		if (!strncmp(line, "summary: ", 9))
			summary = strtoull(line + 9, NULL, 10);
		events_ir |= !strcmp(line, "events: Ir");
		/* "fn=(ID) NAME" the first time, "fn=(ID)" after; cfn= names them too */
		int is_fn = !strncmp(line, "fn=", 3), is_cfn = !strncmp(line, "cfn=", 4);
		if ((is_fn || is_cfn) && sscanf(line + (is_fn ? 3 : 4), "(%u)%n", &id, &used) == 1 && id < 64) {
			const char *rest = line + (is_fn ? 3 : 4) + used;
			if (*rest == ' ' && !names[id])
				names[id] = strdup(rest + 1);
			if (is_fn)
				fn = names[id];
			continue;
		}
		if (!strncmp(line, "calls=", 6)) {
			after_calls = 1;
			continue;
		}
		unsigned long long pos, cost;
		if (sscanf(line, "%llu %llu", &pos, &cost) == 2) {
			for (size_t i = 0; !after_calls && fn && i < NSYMS; i++)
				if (!strcmp(fn, syms[i].name))
					self[i] += cost;
			after_calls = 0;
		}
	}
	free(text);
	for (size_t i = 0; i < 64; i++)
		free(names[i]);
	if (summary != m->executed || !events_ir) {
		fprintf(stderr, "FAIL %s: callgrind summary %llu (events Ir: %d), the emulator ran %llu\n",
			what, (unsigned long long)summary, events_ir, (unsigned long long)m->executed);
		failures++;
	}
	for (size_t i = 0; i < NSYMS; i++) {
		if (self[i] != m->per_func[i]) {
			fprintf(stderr, "FAIL %s: callgrind self cost of %s %llu, the emulator ran %llu\n",
				what, syms[i].name, (unsigned long long)self[i],
				(unsigned long long)m->per_func[i]);
			failures++;
		}
	}
	f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_profile(m->t, "pprof", f) == 0);
	fclose(f);
	CHECK(len > 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b);
	free(text);
	f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_profile(m->t, "speedscope", f) == 0);
	fclose(f);
	CHECK(len > 0 && text[0] == '{' && strstr(text, "\"name\":\"work\""));
	free(text);
	f = open_memstream(&text, &len);
	CHECK(tephra_trace_write_profile(m->t, "svg", f) == -1);
	fclose(f);
	free(text);
}

int main(void)
{
	static const struct {
		enum feed feed;
		const char *what;
	} feeds[] = {
		{ FEED_STEP, "tephra_trace_step" },
		{ FEED_CHARGE_RUNS, "charge per run + transfer" },
		{ FEED_CHARGE_EACH, "charge per instruction + transfer" },
	};
	assemble();
	for (size_t k = 0; k < sizeof(feeds) / sizeof(feeds[0]); k++) {
		struct toy m;
		memset(&m, 0, sizeof(m));
		m.feed = feeds[k].feed;
		m.t = tephra_trace_new(syms, NSYMS, NULL);
		CHECK(m.t != NULL);
		if (!m.t)
			return 1;
		CHECK(run(&m) == 0);
		/* The program's own shape, worked out by hand: _start 5, main 1 + 3 x 3 + 2,
		 * work 3 x 2, finish 2. */
		CHECK(m.executed == 25);
		check_profile(feeds[k].what, &m);
		check_export(feeds[k].what, &m);
		tephra_trace_free(m.t);
	}
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures != 0;
}
