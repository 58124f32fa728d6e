/* tephra/trace.h - fold the instruction stream of a RISC-V guest into a call-path
 * profile, from any emulator or tracer.
 *
 * Feed every executed instruction (tephra_trace_step) or, if your emulator knows its
 * control transfers itself, charge instructions (tephra_trace_charge) and report the
 * transfers (tephra_trace_transfer).  Calls, returns, tail calls and signal entries are
 * worked out as tephra's QEMU plugin does (docs/emu.md); the profile is written as folded
 * stacks ("f1;f2;f3 COUNT", root first, lines sorted bytewise, equal stacks summed).
 *
 * Not thread-safe: use one struct tephra_trace per guest thread, or switch threads with
 * tephra_trace_thread.  The library never prints; out of memory aborts the process.
 * docs/library.md shows the whole API in use (C and Rust) and how to link it
 * (pkg-config tephra). */
#ifndef TEPHRA_TRACE_H
#define TEPHRA_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* tephra_trace_step and tephra_trace_charge are inline functions (the fast path at the
 * end of this file): C99 inline, the library's copy being the external definition that
 * callers which cannot inline C (Rust, dlsym, function pointers) call; a GNU C89 caller
 * gets a static copy. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L && \
			     !defined(__GNUC_GNU_INLINE__))
#define TEPHRA_TRACE_INLINE inline
#else
#define TEPHRA_TRACE_INLINE static __inline__
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct tephra_trace;

enum tephra_sym_binding { TEPHRA_SYM_LOCAL = 0, TEPHRA_SYM_WEAK = 1, TEPHRA_SYM_GLOBAL = 2 };

/* A function symbol of the guest.  SIZE 0: it ends where the next symbol starts; but a
 * zero-size symbol strictly inside a sized one is a label, not a function (ignored).
 * Nested symbols own their own range (docs/emu.md, "Which symbol owns a pc"). */
struct tephra_trace_symbol {
	uint64_t start;
	uint64_t size;
	const char *name;
	int binding; /* enum tephra_sym_binding: aliases prefer global, weak, local */
};

enum tephra_trace_flags {
	TEPHRA_TRACE_RAW = 1 << 0,       /* frames are hex addresses: call sites for callers,
					  * the executing pc for the leaf */
	TEPHRA_TRACE_NEST_TAIL = 1 << 1, /* tail calls nest under the tail-caller */
};

struct tephra_trace_options {
	int xlen;        /* 32 or 64 (0 = 64); c.jal exists only on RV32 */
	unsigned flags;  /* enum tephra_trace_flags */
};

/* A tracer over the given function symbols (copied).  OPTS may be NULL.  Returns NULL
 * only on out-of-memory. */
struct tephra_trace *tephra_trace_new(const struct tephra_trace_symbol *syms, size_t nsyms,
				      const struct tephra_trace_options *opts);
/* A tracer over the function symbols of the guest ELF file PATH (xlen from the file
 * unless OPTS sets it).  On failure returns NULL and writes a message to ERR. */
struct tephra_trace *tephra_trace_new_elf(const char *path, const struct tephra_trace_options *opts,
					  char *err, size_t errlen);
/* Frees the tracer and everything it holds (T may be NULL). */
void tephra_trace_free(struct tephra_trace *t);

/* One executed instruction at PC: INSN_BITS its encoding (low bits first), INSN_LEN 2 or 4
 * (0: taken from the encoding).  Returns 0, or -1 if the encoding is not a 16/32-bit one
 * (the instruction is still counted).  Inline (end of this file): a straight-line
 * instruction costs a tag compare and a counter bump in the caller's own loop; everything
 * else goes to tephra_trace_step_slow. */
TEPHRA_TRACE_INLINE
int tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t insn_bits, unsigned insn_len);
int tephra_trace_step_slow(struct tephra_trace *t, uint64_t pc, uint32_t insn_bits, unsigned insn_len);

/* Hosts that know their transfers: charge COUNT instructions at PC to the current path
 * (in raw mode PC is the leaf frame)...  The first pc a thread shows, charged or
 * transferred from, opens its root frame (its function, as for tephra_trace_step), so
 * charge what runs before the first transfer with its real pc.  Use either this pair or
 * tephra_trace_step for one thread, not both.  Inline too: an add in the caller;
 * tephra_trace_charge_slow for a thread's first pc and raw mode. */
TEPHRA_TRACE_INLINE
void tephra_trace_charge(struct tephra_trace *t, uint64_t pc, uint64_t count);
void tephra_trace_charge_slow(struct tephra_trace *t, uint64_t pc, uint64_t count);

enum tephra_transfer_kind {
	TEPHRA_CALL = 0,       /* FROM: a 4-byte call instruction; returns to FROM + 4 */
	TEPHRA_CALL_RVC = 1,   /* FROM: a 2-byte (compressed) call; returns to FROM + 2 */
	TEPHRA_RETURN = 2,     /* to TO */
	TEPHRA_JUMP = 3,       /* non-linking: a tail call only between different functions */
	TEPHRA_TAIL_CALL = 4,  /* forced tail call */
	TEPHRA_SIGRETURN = 5,  /* back from the innermost signal handler */
	TEPHRA_SIGNAL = 64,    /* asynchronous entry into the handler TO; TEPHRA_SIGNAL + N
				* names the signal N (1..64), TEPHRA_SIGNAL alone = unknown */
};
/* ...and report each transfer FROM -> TO, after charging the transferring instruction
 * (it belongs to the code that executes it).  FROM 0 means no source: as a thread's
 * first event it enters TO as the root frame.  Returns 0, or -1 for an unknown kind
 * (then nothing changes). */
int tephra_trace_transfer(struct tephra_trace *t, uint64_t from, uint64_t to, int kind);

/* Switch to the guest thread TID (its own stack; created on first use). */
void tephra_trace_thread(struct tephra_trace *t, uint64_t tid);

/* Writes the folded profile of all threads to OUT, one "root;...;leaf COUNT" line per
 * call path (sorted bytewise, equal paths summed; COUNT in instructions) and flushes it.
 * Returns 0, or -1 on a write error. */
int tephra_trace_write_folded(struct tephra_trace *t, FILE *out);

/* Receives one line of the folded profile: STACK is "root;...;leaf" (LEN bytes,
 * NUL-terminated, valid only during the call), COUNT its instructions.  Returns 0 to
 * go on, anything else to stop. */
typedef int (*tephra_folded_fn)(void *ctx, const char *stack, size_t len, uint64_t count);
/* The same profile through a callback instead of a FILE *: calls FN(CTX, ...) once per
 * line tephra_trace_write_folded would write, in the same order.  Returns 0, or -1 when
 * FN stopped it. */
int tephra_trace_each_folded(struct tephra_trace *t, tephra_folded_fn fn, void *ctx);

/* Writes the profile of all threads in another tool's format to OUT and flushes it:
 * FORMAT "pprof" (gzip-compressed profile.proto: go tool pprof, Pyroscope, Parca),
 * "callgrind" (KCachegrind, callgrind_annotate) or "speedscope" (JSON).  Every address is
 * kept (callers' call sites, the leaf's pc, as in raw mode), named by the tracer's
 * symbols; for a tracer made by tephra_trace_new_elf each is in that ELF (its path and
 * GNU build-id) with the inline chain and source lines of its DWARF.  Weights are
 * instructions; threads are not told apart.  Returns 0, or -1 (an unknown FORMAT, a
 * write error). */
int tephra_trace_write_profile(struct tephra_trace *t, const char *format, FILE *out);

struct tephra_trace_counts {
	uint64_t instructions, calls, returns, tail_calls, underflows, nonlocal_pops, signals;
};
/* The self-check counters summed over all threads, into OUT: instructions charged;
 * calls, returns, tail calls and signal entries recognised; returns that popped to a
 * deeper frame than the top one (non-local pops: longjmp, exceptions); returns that
 * matched no live frame and re-rooted the stack (underflows). */
void tephra_trace_counts(const struct tephra_trace *t, struct tephra_trace_counts *out);
/* One line "instructions N, calls N, returns N, tail calls N, underflows N, non-local
 * pops N, signals N" (no newline) into BUF. */
void tephra_trace_format_counts(const struct tephra_trace_counts *c, char *buf, size_t len);

/* The fast path.  What the inline code below reads is part of the ABI (TEPHRA_0):
 * read-only for callers, changed only with the SONAME. */

/* A straight-line instruction the tracer has decoded: PC (TEPHRA_TRACE_NO_SLOT in an
 * empty slot), its encoding's own bits BITS, its length LEN (2 or 4), and SHIFT = 32 - 8 *
 * LEN (the caller's bits beyond the encoding's own are shifted out before comparing). */
struct tephra_trace_fast_slot {
	uint64_t pc;
	uint32_t bits;
	uint8_t len, shift;
	uint16_t reserved;
};
#define TEPHRA_TRACE_NO_SLOT 3u  /* odd: never a pc the tracer puts in a slot */
#define TEPHRA_TRACE_NO_NEXT 1u  /* odd, and not TEPHRA_TRACE_NO_SLOT */

/* The first member of every struct tephra_trace.  NEXT_PC: where the current thread's
 * next straight-line instruction takes the fast path (TEPHRA_TRACE_NO_NEXT: none);
 * COUNTER: the current call path's instruction count; SLOTS[(pc >> 1) & SLOT_MASK]: the
 * decoded straight-line instruction at pc, if any; CHARGE_COUNTER: the counter
 * tephra_trace_charge adds to (NULL: tephra_trace_charge_slow decides). */
struct tephra_trace_fast {
	uint64_t next_pc;
	uint64_t *counter;
	const struct tephra_trace_fast_slot *slots;
	uint64_t slot_mask;
	uint64_t *charge_counter;
};

TEPHRA_TRACE_INLINE
int tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t insn_bits, unsigned insn_len)
{
	struct tephra_trace_fast *f = (struct tephra_trace_fast *)(void *)t;
	const struct tephra_trace_fast_slot *s = &f->slots[(pc >> 1) & f->slot_mask];
	if (insn_len == 2)
		insn_bits &= 0xffff;
	if (__builtin_expect(pc == f->next_pc && s->pc == pc &&
			     (uint32_t)((insn_bits ^ s->bits) << s->shift) == 0, 1)) {
		++*f->counter;
		f->next_pc = pc + s->len;
		return 0;
	}
	return tephra_trace_step_slow(t, pc, insn_bits, insn_len);
}

TEPHRA_TRACE_INLINE
void tephra_trace_charge(struct tephra_trace *t, uint64_t pc, uint64_t count)
{
	struct tephra_trace_fast *f = (struct tephra_trace_fast *)(void *)t;
	if (__builtin_expect(f->charge_counter != 0, 1))
		*f->charge_counter += count;
	else
		tephra_trace_charge_slow(t, pc, count);
}

#ifdef __cplusplus
}
#endif
#endif
