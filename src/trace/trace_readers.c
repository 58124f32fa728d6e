/* trace_readers.c - QEMU exec logs and binary PC dumps (see trace_readers.h). */
#include "trace/trace_readers.h"

#include <endian.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "riscv/riscv_insn.h"
#include "trace/trace_internal.h"

/* The longest block QEMU translates (TCG_MAX_INSNS): a walk never goes further. */
#define MAX_BLOCK_INSNS 512
/* A call stack per cpu costs ~2 KiB until it grows: a log naming millions of cpus must
 * still not make millions of them.  QEMU reuses the indexes of exited threads, so real
 * logs of even very threaded guests stay far below this. */
#define MAX_CPUS 4096

/* A stream where more than 1 arrival in 100 is somewhere the previous instruction cannot
 * lead is not a trace of this ELF (another program, a wrong --elf, random bytes).  Each
 * such arrival pushes a signal frame, so going on would build stacks as deep as the
 * trace is long and a folded output quadratic in it: stop with an error instead. */
#define MIN_ASYNC_CHECKED 1024

static int inconsistent(const struct tephra_trace *t, const struct trace_read_stats *st,
			const char *name, int64_t off, struct tephra_error *err)
{
	uint64_t async = trace_async_entries(t);
	if (async < MIN_ASYNC_CHECKED || async * 100 <= st->instructions)
		return 0;
	tephra_error_at(err, name, off, "%" PRIu64 " of the first %" PRIu64 " instructions "
			"arrive where the previous one cannot lead: not a trace of this ELF",
			async, st->instructions);
	return 1;
}

enum trace_format trace_guess_format(FILE *f)
{
	char buf[64];
	size_t n = fread(buf, 1, sizeof(buf), f);
	rewind(f);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == 0)
			return TRACE_FORMAT_PCS; /* text logs hold no NUL bytes */
	return TRACE_FORMAT_QEMU_LOG;
}

/* Parses "Trace N: 0xHOST [CSBASE/PC/FLAGS/CFLAGS]..." into *CPU, *PC and *MAX_INSNS,
 * the instruction limit QEMU put in the block's cflags (CF_COUNT_MASK, the low 9 bits:
 * 1 under -singlestep, 0 = no limit). */
static int parse_trace_line(const char *s, uint64_t *cpu, uint64_t *pc, unsigned *max_insns)
{
	if (strncmp(s, "Trace ", 6) != 0)
		return -1;
	char *end;
	*cpu = strtoull(s + 6, &end, 10);
	if (end == s + 6 || *end != ':')
		return -1;
	const char *br = strchr(end, '[');
	if (!br)
		return -1;
	const char *slash = strchr(br, '/');
	if (!slash)
		return -1;
	*pc = strtoull(slash + 1, &end, 16);
	if (end == slash + 1 || *end != '/')
		return -1;
	*max_insns = 0;
	const char *flags = end + 1, *cf = strchr(flags, '/');
	if (cf) {
		unsigned long v = strtoul(cf + 1, &end, 16);
		if (end != cf + 1 && *end == ']')
			*max_insns = (unsigned)(v & 0x1ff);
	}
	return 0;
}

/* Runs the block starting at PC; NEXT is where the log says execution went next
 * (HAVE_NEXT = 0 for the last block). */
static void run_block(struct tephra_trace *t, uint64_t pc, unsigned max_insns, uint64_t next,
		      int have_next, struct trace_read_stats *st)
{
	const struct guest_elf *elf = trace_elf(t);
	if (!max_insns || max_insns > MAX_BLOCK_INSNS)
		max_insns = MAX_BLOCK_INSNS;
	for (unsigned i = 0; i < max_insns; i++) {
		uint32_t bits;
		int avail = guest_elf_fetch(elf, pc, &bits);
		unsigned len = trace_step_pc(t, pc);
		st->instructions++;
		if (len == 0) {
			st->outside_elf++;
			return; /* unknown code: one instruction per block, it may go anywhere */
		}
		struct rv_insn in;
		rv_decode(avail == 4 ? bits : bits & 0xffff, elf->xlen, &in);
		if (i == 1)
			st->multi_insn_blocks++;
		if (in.flow != RV_FLOW_NONE)
			return;
		pc += len;
		if (have_next && pc == next)
			return;
	}
}

int trace_read_qemu_log(struct tephra_trace *t, FILE *f, const char *name,
			struct trace_read_stats *st, struct tephra_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int64_t off = 0;
	uint64_t cur_cpu = 0, cur_pc = 0;
	unsigned cur_max = 0;
	int have = 0;
	memset(st, 0, sizeof(*st));
	while ((n = getline(&line, &cap, f)) > 0) {
		uint64_t cpu, pc;
		unsigned max_insns;
		if (parse_trace_line(line, &cpu, &pc, &max_insns) != 0) {
			if (!strncmp(line, "Trace ", 6)) {
				tephra_error_at(err, name, off, "malformed Trace line");
				free(line);
				return -1;
			}
			st->skipped_lines++;
			off += n;
			continue;
		}
		st->blocks++;
		if (have) {
			/* The next block of the same cpu tells where the previous one went. */
			run_block(t, cur_pc, cur_max, pc, cpu == cur_cpu, st);
			if ((st->blocks & 1023) == 0 && inconsistent(t, st, name, off, err)) {
				free(line);
				return -1;
			}
		}
		if ((!have || cpu != cur_cpu) && trace_select_thread(t, cpu, MAX_CPUS) != 0) {
			tephra_error_at(err, name, off, "more than %d distinct cpus in 'Trace N:' "
					"lines: not a QEMU exec log of one guest", MAX_CPUS);
			free(line);
			return -1;
		}
		cur_cpu = cpu;
		cur_pc = pc;
		cur_max = max_insns;
		have = 1;
		off += n;
	}
	if (have)
		run_block(t, cur_pc, cur_max, 0, 0, st);
	int bad = ferror(f);
	free(line);
	if (bad) {
		tephra_error_at(err, name, off, "read error");
		return -1;
	}
	if (inconsistent(t, st, name, off, err))
		return -1;
	if (!st->blocks) {
		tephra_error_at(err, name, -1, "no 'Trace' lines: not a QEMU -d exec log");
		return -1;
	}
	return 0;
}

int trace_read_pcs(struct tephra_trace *t, FILE *f, const char *name,
		   struct trace_read_stats *st, struct tephra_error *err)
{
	enum { CHUNK = 8192 };
	uint64_t *buf = malloc(CHUNK * sizeof(*buf));
	if (!buf) {
		tephra_error_at(err, name, -1, "out of memory");
		return -1;
	}
	memset(st, 0, sizeof(*st));
	int64_t off = 0;
	size_t got;
	while ((got = fread(buf, 1, CHUNK * sizeof(*buf), f)) > 0) {
		size_t k = got / sizeof(*buf);
		for (size_t i = 0; i < k; i++) {
			uint64_t pc = le64toh(buf[i]);
			if (trace_step_pc(t, pc) == 0)
				st->outside_elf++;
		}
		st->instructions += k;
		off += (int64_t)got;
		if (inconsistent(t, st, name, off, err)) {
			free(buf);
			return -1;
		}
		if (got % sizeof(*buf)) {
			tephra_error_at(err, name, off - (int64_t)(got % sizeof(*buf)),
					"truncated pc: %zu trailing bytes (the file must hold 8-byte pcs)",
					got % sizeof(*buf));
			free(buf);
			return -1;
		}
	}
	int bad = ferror(f);
	free(buf);
	if (bad) {
		tephra_error_at(err, name, off, "read error");
		return -1;
	}
	return 0;
}
