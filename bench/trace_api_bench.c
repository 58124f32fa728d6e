/* trace_api_bench.c - feeds a recorded pc dump of a RISC-V guest through the public C API
 * (include/tephra/trace.h) both ways and prints the cost of the calls alone.
 *
 *   trace_api_bench GUEST.elf PCS.bin [RUNS] [OUT_PREFIX]
 *
 * PCS.bin: little-endian uint64 per executed instruction (the QEMU plugin's pcs=FILE).
 * Encodings come from GUEST.elf's PT_LOAD segments (ELF64 little-endian).  The dump is
 * handed over in chunks; only the API calls of a chunk are timed (thread CPU time and
 * wall), so reading the dump and looking up encodings are not counted:
 *   step:     tephra_trace_step per instruction, with its encoding;
 *   transfer: the calls an emulator that knows its control flow makes: one
 *             tephra_trace_charge per basic block (a run ending at a control-flow
 *             instruction or a discontinuity) and one tephra_trace_transfer per taken
 *             call, return or jump, classified here from the encoding;
 *   straight: tephra_trace_step on straight-line code alone (a synthetic loop).
 * Best of RUNS (default 3).  With OUT_PREFIX, each mode's folded profile is written to
 * OUT_PREFIX.step / OUT_PREFIX.transfer. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tephra/trace.h"

#define CHUNK 65536

struct segment {
	uint64_t vaddr, size;
	const uint8_t *bytes;
};

static struct segment segs[16];
static size_t nsegs;

static const void *map_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		fprintf(stderr, "trace_api_bench: cannot read %s\n", path);
		exit(1);
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "trace_api_bench: cannot map %s\n", path);
		exit(1);
	}
	*size = (size_t)st.st_size;
	return p;
}

static void load_segments(const char *path)
{
	size_t size;
	const uint8_t *f = map_file(path, &size);
	const Elf64_Ehdr *eh = (const void *)f;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > size) {
		fprintf(stderr, "trace_api_bench: %s is not an ELF64 file\n", path);
		exit(1);
	}
	const Elf64_Phdr *ph = (const void *)(f + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum && nsegs < 16; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X) || ph[i].p_offset + ph[i].p_filesz > size)
			continue;
		segs[nsegs++] = (struct segment){ ph[i].p_vaddr, ph[i].p_filesz, f + ph[i].p_offset };
	}
}

/* The encoding at PC (0 when PC is outside the ELF's code). */
static uint32_t fetch(uint64_t pc)
{
	for (size_t i = 0; i < nsegs; i++) {
		if (pc - segs[i].vaddr < segs[i].size) {
			uint64_t off = pc - segs[i].vaddr, avail = segs[i].size - off;
			uint32_t bits = 0;
			memcpy(&bits, segs[i].bytes + off, avail < 4 ? avail : 4);
			return bits;
		}
	}
	return 0;
}

static unsigned insn_len(uint32_t bits)
{
	return (bits & 3) == 3 ? 4 : 2;
}

/* What an emulator knows of a control-flow instruction: -1 none, else the transfer kind
 * it reports when control does not fall through (calls always). */
static int transfer_kind(uint32_t bits, int *branch)
{
	*branch = 0;
	if ((bits & 3) == 3) {
		unsigned op = bits & 0x7f, rd = (bits >> 7) & 31, rs1 = (bits >> 15) & 31;
		int link_rd = rd == 1 || rd == 5, link_rs1 = rs1 == 1 || rs1 == 5;
		if (op == 0x6f)
			return link_rd ? TEPHRA_CALL : TEPHRA_JUMP;
		if (op == 0x67)
			return link_rd ? TEPHRA_CALL : link_rs1 ? TEPHRA_RETURN : TEPHRA_JUMP;
		if (op == 0x63) {
			*branch = 1;
			return TEPHRA_JUMP;
		}
		return -1;
	}
	unsigned q = bits & 3, f3 = (bits >> 13) & 7, r = (bits >> 7) & 31, rs2 = (bits >> 2) & 31;
	if (q == 1 && f3 == 5)
		return TEPHRA_JUMP; /* c.j */
	if (q == 1 && (f3 == 6 || f3 == 7)) {
		*branch = 1; /* c.beqz, c.bnez */
		return TEPHRA_JUMP;
	}
	if (q == 2 && f3 == 4 && rs2 == 0 && r != 0) {
		if ((bits >> 12) & 1)
			return TEPHRA_CALL_RVC; /* c.jalr */
		return r == 1 || r == 5 ? TEPHRA_RETURN : TEPHRA_JUMP; /* c.jr */
	}
	return -1;
}

struct timing {
	double cpu, wall;
};

static double now(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct event {
	uint64_t a, b; /* charge: pc, count; transfer: from, to */
	int kind;      /* -1: charge */
};

struct feed {
	const uint64_t *pcs;
	size_t n;
	uint64_t blocks, transfers;
};

static void write_out(struct tephra_trace *t, const char *prefix, const char *mode)
{
	if (!prefix)
		return;
	char path[4096];
	snprintf(path, sizeof(path), "%s.%s", prefix, mode);
	FILE *f = fopen(path, "w");
	if (!f || tephra_trace_write_folded(t, f) != 0 || fclose(f) != 0) {
		fprintf(stderr, "trace_api_bench: cannot write %s\n", path);
		exit(1);
	}
}

static struct timing run_step(const char *elf, struct feed *fd, const char *out)
{
	char err[256];
	struct tephra_trace *t = tephra_trace_new_elf(elf, NULL, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "trace_api_bench: %s\n", err);
		exit(1);
	}
	static uint64_t pc[CHUNK];
	static uint32_t bits[CHUNK];
	struct timing tm = { 0, 0 };
	for (size_t base = 0; base < fd->n; base += CHUNK) {
		size_t k = fd->n - base < CHUNK ? fd->n - base : CHUNK;
		for (size_t i = 0; i < k; i++) {
			pc[i] = fd->pcs[base + i];
			bits[i] = fetch(pc[i]);
			if (!bits[i])
				bits[i] = 0x13; /* outside the ELF: a nop */
		}
		double c0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
		for (size_t i = 0; i < k; i++)
			tephra_trace_step(t, pc[i], bits[i], 0);
		tm.cpu += now(CLOCK_THREAD_CPUTIME_ID) - c0;
		tm.wall += now(CLOCK_MONOTONIC) - w0;
	}
	write_out(t, out, "step");
	tephra_trace_free(t);
	return tm;
}

static struct timing run_transfer(const char *elf, struct feed *fd, const char *out)
{
	char err[256];
	struct tephra_trace *t = tephra_trace_new_elf(elf, NULL, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "trace_api_bench: %s\n", err);
		exit(1);
	}
	static struct event ev[2 * CHUNK + 2];
	struct timing tm = { 0, 0 };
	uint64_t run_pc = 0, run_len = 0;
	fd->blocks = fd->transfers = 0;
	for (size_t base = 0; base < fd->n; base += CHUNK) {
		size_t k = fd->n - base < CHUNK ? fd->n - base : CHUNK, ne = 0;
		for (size_t i = 0; i < k; i++) {
			uint64_t pc = fd->pcs[base + i];
			uint32_t b = fetch(pc);
			unsigned len = b ? insn_len(b) : 4;
			if (!run_len)
				run_pc = pc;
			run_len++;
			int branch, kind = b ? transfer_kind(b, &branch) : -1;
			int have_next = base + i + 1 < fd->n;
			uint64_t next = have_next ? fd->pcs[base + i + 1] : pc + len;
			if (kind < 0 && next == pc + len)
				continue;
			ev[ne++] = (struct event){ run_pc, run_len, -1 };
			fd->blocks++;
			run_len = 0;
			if (kind >= 0 && (next != pc + len || kind == TEPHRA_CALL || kind == TEPHRA_CALL_RVC)) {
				ev[ne++] = (struct event){ pc, next, kind };
				fd->transfers++;
			}
		}
		if (base + k == fd->n && run_len) {
			ev[ne++] = (struct event){ run_pc, run_len, -1 };
			fd->blocks++;
			run_len = 0;
		}
		double c0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
		for (size_t i = 0; i < ne; i++) {
			if (ev[i].kind < 0)
				tephra_trace_charge(t, ev[i].a, ev[i].b);
			else
				tephra_trace_transfer(t, ev[i].a, ev[i].b, ev[i].kind);
		}
		tm.cpu += now(CLOCK_THREAD_CPUTIME_ID) - c0;
		tm.wall += now(CLOCK_MONOTONIC) - w0;
		/* A run cut by the chunk's end goes on in the next chunk: charge what was
		 * seen (its pc is where it started). */
		if (run_len) {
			tephra_trace_charge(t, run_pc, run_len);
			run_len = 0;
		}
	}
	write_out(t, out, "transfer");
	tephra_trace_free(t);
	return tm;
}

/* Straight-line code alone: a loop of 4096 nops closed by `j` back to its start (one
 * function, so the jump never touches the stack), run for about N instructions.  The
 * instructions are in arrays before the clock starts. */
#define LOOP_NOPS 4096
static struct timing run_straight(uint64_t n, uint64_t *executed)
{
	static uint64_t pc[LOOP_NOPS + 1];
	static uint32_t bits[LOOP_NOPS + 1];
	const uint64_t base = 0x10000;
	for (int i = 0; i <= LOOP_NOPS; i++) {
		pc[i] = base + 4 * (uint64_t)i;
		bits[i] = i < LOOP_NOPS ? 0x00000013 : 0x800fc06f; /* nop; j base (GNU as) */
	}
	struct tephra_trace_symbol sym = { base, 4 * (LOOP_NOPS + 1), "loop", TEPHRA_SYM_GLOBAL };
	struct tephra_trace *t = tephra_trace_new(&sym, 1, NULL);
	uint64_t rounds = n / (LOOP_NOPS + 1) + 1;
	double c0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
	for (uint64_t r = 0; r < rounds; r++)
		for (int i = 0; i <= LOOP_NOPS; i++)
			tephra_trace_step(t, pc[i], bits[i], 0);
	struct timing tm = { now(CLOCK_THREAD_CPUTIME_ID) - c0, now(CLOCK_MONOTONIC) - w0 };
	struct tephra_trace_counts c;
	tephra_trace_counts(t, &c);
	*executed = c.instructions;
	tephra_trace_free(t);
	return tm;
}

static struct timing best(struct timing a, struct timing b)
{
	return b.cpu < a.cpu ? b : a;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: trace_api_bench GUEST.elf PCS.bin [RUNS] [OUT_PREFIX]\n");
		return 2;
	}
	int runs = argc > 3 ? atoi(argv[3]) : 3;
	const char *out = argc > 4 ? argv[4] : NULL;
	load_segments(argv[1]);
	size_t size;
	struct feed fd = { map_file(argv[2], &size), 0, 0, 0 };
	fd.n = size / 8;
	struct timing s = { 1e30, 0 }, x = { 1e30, 0 }, l = { 1e30, 0 };
	uint64_t looped = 0;
	for (int r = 0; r < (runs > 0 ? runs : 1); r++) {
		s = best(s, run_step(argv[1], &fd, r == 0 ? out : NULL));
		x = best(x, run_transfer(argv[1], &fd, r == 0 ? out : NULL));
		l = best(l, run_straight(fd.n, &looped));
	}
	double n = (double)fd.n;
	printf("tephra_trace_step, straight-line code (4096-nop loop): %llu instructions, %.3f s CPU (%.3f s wall): %.2f ns/instruction, %.0f M instructions/s (goal <= 1.5 ns, >= 600 M/s)\n",
	       (unsigned long long)looped, l.cpu, l.wall, l.cpu * 1e9 / (double)looped,
	       (double)looped / l.cpu / 1e6);
	printf("tephra_trace_step, the guest's trace: %zu instructions, %.3f s CPU (%.3f s wall): %.2f ns/instruction, %.0f M instructions/s (goal <= 1.5 ns, >= 600 M/s)\n",
	       fd.n, s.cpu, s.wall, s.cpu * 1e9 / n, n / s.cpu / 1e6);
	printf("tephra_trace_charge+transfer: %llu blocks, %llu transfers, %.3f s CPU (%.3f s wall): %.2f ns/block (goal <= 5 ns), %.0f M instructions/s\n",
	       (unsigned long long)fd.blocks, (unsigned long long)fd.transfers, x.cpu, x.wall,
	       x.cpu * 1e9 / (double)fd.blocks, n / x.cpu / 1e6);
	return 0;
}
