/* trace_api.c - the public C API (include/tephra/trace.h) over rv_tracker + callstack. */
/* The external definitions of the header's inline tephra_trace_step and
 * tephra_trace_charge (C99 inline: an extern declaration makes this file's copy the
 * exported one, for callers that do not compile the header's C).  Declared before the
 * header defines them: clang ignores a visibility attribute given after a definition. */
#include <stdint.h>

#include "base/api.h"
struct tephra_trace;
TEPHRA_API extern int tephra_trace_step(struct tephra_trace *t, uint64_t pc, uint32_t insn_bits,
					unsigned insn_len);
TEPHRA_API extern void tephra_trace_charge(struct tephra_trace *t, uint64_t pc, uint64_t count);

#include "trace/trace_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/api.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "export/export_write.h"
#include "riscv/rv_tracker.h"
#include "trace/guest_dwarf.h"
#include "trace/trace_export.h"
#include "trace/trace_fold.h"

struct trace_thread {
	uint64_t tid;
	struct callstack *cs;
	struct rv_tracker trk;
};

/* Decoded instructions, direct-mapped by pc and tagged by pc and encoding (a guest that
 * rewrites its code gets the new instruction decoded): the stream revisits the same code,
 * so each (pc, encoding) is decoded and looked up in the symbols once. */
#define DECODE_SLOTS 8192
struct decoded {
	uint64_t pc;
	uint32_t bits;       /* the encoding's own bits: 16 for a compressed instruction */
	uint32_t mask;       /* 0xffff or 0xffffffff: which bits of the caller's are its own */
	uint8_t plain;       /* falls through, starts no function, not raw: a counter bump */
	uint8_t cross;
	uint8_t starts_func; /* pc is the first instruction of a function */
	uint8_t valid;
	struct rv_insn insn;
};

/* Function starts by address, direct-mapped: calls, returns and jumps ask the callstack
 * for the same few targets over and over. */
#define FUNC_SLOTS 1024
struct func_memo {
	uint64_t addr, start;
	uint8_t known, valid;
};

struct tephra_trace {
	/* First: tephra_trace_step's inline fast path (include/tephra/trace.h) reads it. */
	struct tephra_trace_fast fast;
	struct guest_syms syms;
	struct guest_elf *elf;
	const struct guest_syms *symp;
	int xlen;
	unsigned flags;
	struct cs_host host;
	struct cs_options csopts;
	struct trace_thread *threads;
	size_t nthreads, cap_threads;
	struct hashmap thread_ids; /* tid (hashmap_*_u64) -> entry index == index in threads */
	size_t cur;
	struct callstack *cur_cs; /* threads[cur].cs: what a transfer reads first */
	/* fast.next_pc: while nothing is pending, the current thread's next pc (NO_PLAIN_PC
	 * sends the next instruction through the tracker); fast.counter: its path's.
	 * fast.charge_counter, tephra_trace_charge's: the current path's counter once the
	 * current thread is started (NULL: go the long way; always NULL in raw mode, which
	 * charges per pc). */
	struct decoded cache[DECODE_SLOTS];
	/* The plain entries of cache[], index for index, as the inline fast path reads them
	 * (a slot is emptied when its cache entry is replaced by one that is not plain). */
	struct tephra_trace_fast_slot fast_slots[DECODE_SLOTS];
	struct func_memo funcs[FUNC_SLOTS];
};

#define NO_PLAIN_PC TEPHRA_TRACE_NO_NEXT

static void add_thread(struct tephra_trace *t, uint64_t tid)
{
	hashmap_intern_u64(&t->thread_ids, tid, NULL);
	if (t->nthreads == t->cap_threads) {
		/* doubling: a log naming thousands of cpus adds them one by one */
		t->cap_threads = t->cap_threads ? 2 * t->cap_threads : 4;
		t->threads = xrealloc(t->threads, t->cap_threads * sizeof(*t->threads));
	}
	struct trace_thread *th = &t->threads[t->nthreads];
	memset(th, 0, sizeof(*th));
	th->tid = tid;
	th->cs = cs_new(&t->host, &t->csopts);
	if (!th->cs)
		xfatal("out of memory (call stack)");
	rv_tracker_init(&th->trk, th->cs);
	t->cur = t->nthreads++;
	t->cur_cs = th->cs;
	t->fast.next_pc = NO_PLAIN_PC;
	t->fast.charge_counter = NULL;
}

static struct tephra_trace *trace_alloc(const struct tephra_trace_options *opts)
{
	struct tephra_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->xlen = opts && opts->xlen ? opts->xlen : 0;
	t->flags = opts ? opts->flags : 0;
	hashmap_init(&t->thread_ids);
	t->fast.next_pc = NO_PLAIN_PC;
	t->fast.slots = t->fast_slots;
	t->fast.slot_mask = DECODE_SLOTS - 1;
	for (size_t i = 0; i < DECODE_SLOTS; i++)
		t->fast_slots[i].pc = TEPHRA_TRACE_NO_SLOT;
	t->csopts.match = CS_MATCH_RETADDR;
	if (t->flags & TEPHRA_TRACE_NEST_TAIL)
		t->csopts.flags |= CS_OPT_NEST_TAIL;
	return t;
}

/* The function containing ADDR through the memo: its start (1), or 0 when no symbol
 * covers ADDR. */
static inline int memo_lookup(struct tephra_trace *t, uint64_t addr, uint64_t *start)
{
	struct func_memo *m = &t->funcs[(addr >> 1) & (FUNC_SLOTS - 1)];
	if (__builtin_expect(!m->valid || m->addr != addr, 0)) {
		const struct guest_func *f = guest_syms_find(t->symp, addr);
		m->addr = addr;
		m->start = f ? f->start : 0;
		m->known = f != NULL;
		m->valid = 1;
	}
	*start = m->start;
	return m->known;
}

/* The callstack's function id of ADDR (cs_host.func_of's rule: ADDR itself when no
 * symbol covers it); *KNOWN says which. */
static inline uint64_t memo_func_id(struct tephra_trace *t, uint64_t addr, int *known)
{
	uint64_t start;
	*known = memo_lookup(t, addr, &start);
	return *known ? start : addr;
}

/* cs_host.func_of over the symbols, through the memo. */
static int memo_func_of(void *ctx, uint64_t addr, uint64_t *start)
{
	return memo_lookup(ctx, addr, start);
}

static void trace_start(struct tephra_trace *t, const struct guest_syms *syms)
{
	t->symp = syms;
	t->host = trace_libc_host(syms);
	t->host.ctx = t;
	t->host.func_of = memo_func_of;
	if (!t->xlen)
		t->xlen = 64;
	add_thread(t, 0);
}

TEPHRA_API
struct tephra_trace *tephra_trace_new(const struct tephra_trace_symbol *syms, size_t nsyms,
				      const struct tephra_trace_options *opts)
{
	struct tephra_trace *t = trace_alloc(opts);
	if (!t)
		return NULL;
	struct guest_sym_in *in = xcalloc(nsyms ? nsyms : 1, sizeof(*in));
	for (size_t i = 0; i < nsyms; i++)
		in[i] = (struct guest_sym_in){ syms[i].start, syms[i].size, 0, syms[i].name,
					       syms[i].binding };
	guest_syms_build(&t->syms, in, nsyms);
	free(in);
	trace_start(t, &t->syms);
	return t;
}

TEPHRA_API
struct tephra_trace *tephra_trace_new_elf(const char *path, const struct tephra_trace_options *opts,
					  char *err, size_t errlen)
{
	struct tephra_trace *t = trace_alloc(opts);
	if (!t)
		return NULL;
	t->elf = xcalloc(1, sizeof(*t->elf));
	struct tephra_error e;
	if (guest_elf_open(t->elf, path, &e) != 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s", e.msg);
		free(t->elf);
		free(t);
		return NULL;
	}
	if (!t->xlen)
		t->xlen = t->elf->xlen;
	trace_start(t, &t->elf->syms);
	return t;
}

TEPHRA_API void tephra_trace_free(struct tephra_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nthreads; i++)
		cs_free(t->threads[i].cs);
	free(t->threads);
	hashmap_release(&t->thread_ids);
	if (t->elf) {
		guest_elf_close(t->elf);
		free(t->elf);
	}
	guest_syms_release(&t->syms);
	free(t);
}

const struct guest_elf *trace_elf(const struct tephra_trace *t)
{
	return t->elf;
}

static uint8_t cross_of(const struct tephra_trace *t, uint64_t from, uint64_t to)
{
	const struct guest_func *a = guest_syms_find(t->symp, from);
	const struct guest_func *b = guest_syms_find(t->symp, to);
	return a && b && a != b ? RV_OTHER_FUNC : RV_SAME_FUNC;
}

static const struct decoded *decode(struct tephra_trace *t, uint64_t pc, uint32_t bits)
{
	struct decoded *d = &t->cache[(pc >> 1) & (DECODE_SLOTS - 1)];
	if (d->valid && d->pc == pc && (bits & d->mask) == d->bits)
		return d;
	d->pc = pc;
	d->valid = 1;
	rv_decode(bits, t->xlen, &d->insn);
	d->mask = d->insn.len == 2 ? 0xffff : 0xffffffff;
	d->bits = bits & d->mask;
	d->cross = RV_SAME_FUNC;
	const struct guest_func *fn = guest_syms_find(t->symp, pc);
	d->starts_func = fn && fn->start == pc;
	if (d->insn.flow == RV_FLOW_JUMP || d->insn.flow == RV_FLOW_BRANCH)
		d->cross = cross_of(t, pc, pc + (uint64_t)(int64_t)d->insn.imm);
	d->plain = d->insn.flow == RV_FLOW_NONE && !d->starts_func && d->insn.len &&
		   !(t->flags & TEPHRA_TRACE_RAW);
	/* An odd pc (not a RISC-V one) never enters a slot: the empty tag and NO_PLAIN_PC
	 * are odd. */
	struct tephra_trace_fast_slot *fs = &t->fast_slots[d - t->cache];
	if (d->plain && !(pc & 1))
		*fs = (struct tephra_trace_fast_slot){ pc, d->bits, d->insn.len,
						      (uint8_t)(32 - 8 * d->insn.len), 0 };
	else
		fs->pc = TEPHRA_TRACE_NO_SLOT;
	return d;
}

/* Before anything else looks at the current thread's tracker: the fast path moved only
 * plain_pc, so the tracker's next pc is brought up to date, and the fast path is off
 * until the tracker has had its say. */
static inline void sync_plain(struct tephra_trace *t)
{
	if (t->fast.next_pc != NO_PLAIN_PC) {
		t->threads[t->cur].trk.expect = t->fast.next_pc;
		t->fast.next_pc = NO_PLAIN_PC;
	}
}

/* After the tracker: where the next straight-line instruction may take the fast path. */
static inline void resume_plain(struct tephra_trace *t, const struct trace_thread *th)
{
	t->fast.next_pc = th->trk.flow == RV_FLOW_NONE && th->trk.started ? th->trk.expect : NO_PLAIN_PC;
	t->fast.counter = cs_counter(th->cs);
	t->fast.charge_counter = th->trk.started && !(t->flags & TEPHRA_TRACE_RAW) ? t->fast.counter : NULL;
}

static inline void charge_one(struct tephra_trace *t, struct trace_thread *th, uint64_t pc)
{
	if (t->flags & TEPHRA_TRACE_RAW)
		++*cs_leaf_counter(th->cs, pc);
	else
		++*cs_counter(th->cs);
}

static inline unsigned step_with(struct tephra_trace *t, uint64_t pc, const struct decoded *d)
{
	sync_plain(t);
	struct trace_thread *th = &t->threads[t->cur];
	if (rv_tracker_must_arrive(&th->trk, pc))
		rv_tracker_arrive(&th->trk, pc);
	if (d->starts_func)
		rv_tracker_func_start(&th->trk, pc);
	charge_one(t, th, pc);
	if (d->insn.flow == RV_FLOW_NONE)
		th->trk.expect = pc + d->insn.len;
	else
		rv_tracker_leave(&th->trk, pc, &d->insn, d->cross);
	resume_plain(t, th);
	return d->insn.len;
}

static unsigned step_decoded(struct tephra_trace *t, uint64_t pc, uint32_t bits)
{
	return step_with(t, pc, decode(t, pc, bits));
}

/* Whatever the inline fast path of tephra_trace_step (include/tephra/trace.h) did not
 * take: a control transfer, a function start, a discontinuity, a new encoding. */
TEPHRA_API
int tephra_trace_step_slow(struct tephra_trace *t, uint64_t pc, uint32_t insn_bits, unsigned insn_len)
{
	if (insn_len == 2)
		insn_bits &= 0xffff;
	unsigned len = step_decoded(t, pc, insn_bits);
	return len == 2 || len == 4 ? 0 : -1;
}

unsigned trace_step_pc(struct tephra_trace *t, uint64_t pc)
{
	/* The ELF's bytes never change: a cached decode of this pc is still right. */
	const struct decoded *hit = &t->cache[(pc >> 1) & (DECODE_SLOTS - 1)];
	if (hit->valid && hit->pc == pc) {
		if (pc == t->fast.next_pc && hit->plain) {
			++*t->fast.counter;
			t->fast.next_pc = pc + hit->insn.len;
			return hit->insn.len;
		}
		return step_with(t, pc, hit);
	}
	uint32_t bits = 0;
	int avail = t->elf ? guest_elf_fetch(t->elf, pc, &bits) : 0;
	if (avail >= 2 && (avail == 4 || rv_insn_len((uint16_t)bits) == 2))
		return step_decoded(t, pc, bits);
	/* Unknown code: counted; the stack changes only when execution comes back. */
	sync_plain(t);
	struct trace_thread *th = &t->threads[t->cur];
	if (th->trk.flow != RV_FLOW_UNKNOWN && rv_tracker_must_arrive(&th->trk, pc))
		rv_tracker_arrive(&th->trk, pc);
	charge_one(t, th, pc);
	if (th->trk.flow != RV_FLOW_UNKNOWN) {
		struct rv_insn any = { 0, RV_FLOW_UNKNOWN, 0, 0, 0 };
		rv_tracker_leave(&th->trk, pc, &any, RV_SAME_FUNC);
	}
	resume_plain(t, th);
	return 0;
}

/* Hosts that report their own transfers: the first pc the thread shows (charged, or
 * transferred from) opens its root frame, as the first arrival does for stepped
 * instructions.  Without it, what ran before the first call was charged to no frame
 * (and dropped), and the first callee became the root.  PC 0 with NO_PC set is "no
 * source" (a transfer from nowhere enters its target as the root). */
static inline struct trace_thread *opened_thread(struct tephra_trace *t, uint64_t pc, int no_pc)
{
	sync_plain(t);
	struct trace_thread *th = &t->threads[t->cur];
	if (__builtin_expect(!th->trk.started, 0)) {
		if (pc || !no_pc)
			rv_tracker_arrive(&th->trk, pc);
		th->trk.started = 1;
	}
	return th;
}

/* What the inline tephra_trace_charge (include/tephra/trace.h) did not take: the
 * thread's first pc, raw mode. */
TEPHRA_API void tephra_trace_charge_slow(struct tephra_trace *t, uint64_t pc, uint64_t count)
{
	struct trace_thread *th = opened_thread(t, pc, 0);
	if (t->flags & TEPHRA_TRACE_RAW) {
		*cs_leaf_counter(th->cs, pc) += count;
		return;
	}
	*cs_counter(th->cs) += count;
	t->fast.charge_counter = cs_counter(th->cs);
}

/* After a transfer changed the current path. */
static inline int transferred(struct tephra_trace *t, struct callstack *cs)
{
	t->fast.charge_counter = t->flags & TEPHRA_TRACE_RAW ? NULL : cs_counter(cs);
	return 0;
}

/* The same on the fast path, where raw mode never goes. */
static inline int transferred_plain(struct tephra_trace *t, struct callstack *cs)
{
	t->fast.charge_counter = cs_counter(cs);
	return 0;
}

/* The transfers tephra_trace_transfer does not take itself: an unknown kind, the
 * thread's first event, tail calls and signals.  Out of line, so that the common kinds
 * save and restore few registers. */
static __attribute__((noinline)) int transfer_rare(struct tephra_trace *t, uint64_t from,
						   uint64_t to, int kind)
{
	int signal = kind >= TEPHRA_SIGNAL && kind <= TEPHRA_SIGNAL + 64;
	if (!signal && (kind < TEPHRA_CALL || kind > TEPHRA_SIGRETURN))
		return -1;
	struct callstack *cs = opened_thread(t, from, 1)->cs;
	int kf, kt;
	uint64_t ff, ft;
	if (signal)
		cs_signal(cs, kind - TEPHRA_SIGNAL, to, 0);
	else if (kind == TEPHRA_CALL || kind == TEPHRA_CALL_RVC)
		cs_call_func(cs, from, memo_func_id(t, to, &kt), from + (kind == TEPHRA_CALL ? 4 : 2), 0);
	else if (kind == TEPHRA_RETURN)
		cs_return(cs, to, 0);
	else if (kind == TEPHRA_JUMP) {
		ff = memo_func_id(t, from, &kf);
		ft = memo_func_id(t, to, &kt);
		cs_jump_funcs(cs, kf, ff, kt, ft);
	} else if (kind == TEPHRA_TAIL_CALL)
		cs_tail_call_func(cs, memo_func_id(t, to, &kt));
	else
		cs_sigreturn(cs);
	return transferred(t, cs);
}

TEPHRA_API int tephra_trace_transfer(struct tephra_trace *t, uint64_t from, uint64_t to, int kind)
{
	sync_plain(t);
	/* A charge counter means the thread is started and not in raw mode. */
	if (__builtin_expect(!t->fast.charge_counter || (unsigned)kind > TEPHRA_JUMP, 0))
		return transfer_rare(t, from, to, kind);
	/* Function ids through the memo here, not through cs_host.func_of: no indirect
	 * call, and a jump inside one function (a loop's back edge) touches nothing else. */
	struct callstack *cs = t->cur_cs;
	int kf, kt;
	uint64_t ff, ft;
	if (kind == TEPHRA_RETURN)
		cs_return(cs, to, 0);
	else if (kind == TEPHRA_JUMP) {
		ff = memo_func_id(t, from, &kf);
		ft = memo_func_id(t, to, &kt);
		if (!cs_jump_funcs(cs, kf, ff, kt, ft))
			return 0; /* the same path: the charge counter stands */
	} else
		cs_call_func(cs, from, memo_func_id(t, to, &kt), from + (kind == TEPHRA_CALL ? 4 : 2), 0);
	return transferred_plain(t, cs);
}

int trace_select_thread(struct tephra_trace *t, uint64_t tid, size_t max_threads)
{
	if (t->threads[t->cur].tid == tid)
		return 0;
	sync_plain(t);
	t->fast.charge_counter = NULL;
	int64_t i = hashmap_find_u64(&t->thread_ids, tid);
	if (i >= 0) {
		t->cur = (size_t)i;
		t->cur_cs = t->threads[i].cs;
		return 0;
	}
	if (t->nthreads >= max_threads)
		return -1;
	add_thread(t, tid);
	return 0;
}

uint64_t trace_async_entries(const struct tephra_trace *t)
{
	uint64_t n = 0;
	for (size_t i = 0; i < t->nthreads; i++)
		n += t->threads[i].trk.stats.async_entries;
	return n;
}

TEPHRA_API void tephra_trace_thread(struct tephra_trace *t, uint64_t tid)
{
	trace_select_thread(t, tid, SIZE_MAX);
}

/* The folded profile of all threads, in a new table. */
static struct fold_table *folded_table(const struct tephra_trace *t, int raw)
{
	struct fold_table *ft = fold_table_new();
	struct trace_namer namer = trace_namer_syms(t->symp);
	for (size_t i = 0; i < t->nthreads; i++)
		trace_fold_add(ft, t->threads[i].cs, &namer, raw);
	return ft;
}

int trace_each_raw_folded(const struct tephra_trace *t, tephra_folded_fn fn, void *ctx)
{
	struct fold_table *ft = folded_table(t, 1);
	int rc = fold_table_each_line(ft, fn, ctx);
	fold_table_free(ft);
	return rc;
}

TEPHRA_API int tephra_trace_write_folded(struct tephra_trace *t, FILE *out)
{
	struct fold_table *ft = folded_table(t, !!(t->flags & TEPHRA_TRACE_RAW));
	int rc = fold_table_write(ft, out);
	fold_table_free(ft);
	return rc;
}

TEPHRA_API int tephra_trace_each_folded(struct tephra_trace *t, tephra_folded_fn fn, void *ctx)
{
	struct fold_table *ft = folded_table(t, !!(t->flags & TEPHRA_TRACE_RAW));
	int rc = fold_table_each_line(ft, fn, ctx);
	fold_table_free(ft);
	return rc;
}

static int export_line(void *ctx, const char *stack, size_t len, uint64_t count)
{
	trace_export_stack(ctx, stack, len, count);
	return 0;
}

TEPHRA_API int tephra_trace_write_profile(struct tephra_trace *t, const char *format, FILE *out)
{
	int pprof = !strcmp(format, "pprof"), callgrind = !strcmp(format, "callgrind");
	int speedscope = !strcmp(format, "speedscope");
	if (!pprof && !callgrind && !speedscope)
		return -1;
	struct tephra_error err;
	char abs[PATH_MAX];
	const char *object = NULL;
	struct guest_dwarf *dw = NULL;
	if (t->elf) {
		object = realpath(t->elf->path, abs) ? abs : t->elf->path;
		dw = guest_dwarf_open(t->elf->path, &err); /* NULL: names from symbols only */
	}
	struct export_profile *p = export_profile_new(speedscope);
	struct export_sink sink = export_profile_sink(p);
	export_profile_set_unit(p, "instructions");
	struct trace_export *x = trace_export_new(object, t->symp, dw, &sink);
	trace_each_raw_folded(t, export_line, x);
	trace_export_finish(x);
	struct export_write_options wo = { 0, 0 };
	int rc = pprof ? export_write_pprof(p, &wo, out, &err)
		 : callgrind ? export_write_callgrind(p, out, &err)
			     : export_write_speedscope(p, object ? object : "tephra trace", out, &err);
	if (fflush(out) != 0)
		rc = -1;
	export_profile_free(p);
	guest_dwarf_close(dw);
	return rc ? -1 : 0;
}

TEPHRA_API void tephra_trace_counts(const struct tephra_trace *t, struct tephra_trace_counts *out)
{
	struct trace_counts c = { 0 };
	for (size_t i = 0; i < t->nthreads; i++)
		trace_counts_add(&c, t->threads[i].cs);
	out->instructions = c.instructions;
	out->calls = c.calls;
	out->returns = c.returns;
	out->tail_calls = c.tail_calls;
	out->underflows = c.underflows;
	out->nonlocal_pops = c.nonlocal_pops;
	out->signals = c.signals;
}

TEPHRA_API
void tephra_trace_format_counts(const struct tephra_trace_counts *c, char *buf, size_t len)
{
	struct trace_counts tc = { c->instructions, c->calls, c->returns, c->tail_calls,
				   c->underflows, c->nonlocal_pops, c->signals };
	trace_counts_format(&tc, buf, len);
}
