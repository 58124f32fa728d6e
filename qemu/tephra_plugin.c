/* tephra_plugin.c - QEMU TCG plugin: follows the call stack of a RISC-V guest inside the
 * emulator and writes the profile as folded stacks, one instruction = weight 1.
 *
 * Per translation block (TB) we decode, once, how its last instruction leaves it
 * (src/riscv) and register one execution callback with that summary.  The callback
 * resolves the previous TB's exit now that the arrival pc is known (rv_tracker), then
 * adds the TB's instruction count to the current call-trie node (src/callstack): no
 * per-instruction work, no text log.
 *
 * Arguments (-plugin libtephra-qemu.so,key=value,...):
 *   out=PATH         folded output (default tephra-emu.folded)
 *   raw=on           hex addresses instead of names (call sites; leaf = executing pc)
 *   nest=on          tail calls nest under the tail-caller
 *   budget=N         stop the guest after exactly N instructions
 *   checkpoint=N     rewrite the output (atomically) every N instructions
 *   pcs=PATH         also dump every executed pc (little-endian uint64), the input
 *                    format of `tephra trace`
 * At exit it prints one line of self-check counters on stderr. */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "qemu_plugin_api.h"
#include "base/hashmap.h"
#include "base/out_file.h"
#include "qemu/plugin_output.h"
#include "riscv/rv_tracker.h"
#include "qemu/plugin_modules.h"
#include "trace/guest_modules.h"
#include "trace/trace_fold.h"

TEPHRA_PLUGIN_EXPORT int qemu_plugin_version = TEPHRA_QEMU_PLUGIN_API_VERSION;

/* What one translated block does, decided at translation time. */
struct tb_info {
	uint64_t pc;        /* first instruction */
	uint64_t end;       /* pc after the last instruction */
	uint64_t last_pc;
	struct rv_insn last;
	uint8_t cross;      /* enum rv_cross of the last instruction's static target */
	uint32_t n;         /* instructions */
	uint8_t starts_func; /* pc is the first instruction of a function */
	uint32_t nsplits;   /* functions starting inside the block (fall-through) */
	struct tb_split {
		uint32_t idx;   /* instruction index where it starts */
		uint64_t pc;
	} *splits;
	uint64_t *pcs;      /* each instruction's pc */
	uint32_t trap_span; /* instructions begun when the block cannot stop any more (see
			     * st.started), 0 = it cannot stop early */
	struct tb_info *next_same_pc; /* other translations of the same pc */
};

/* Function starts of addresses this thread's calls and jumps went to, direct-mapped:
 * the same few targets come back all the time.  Only found ones are kept (the module
 * table grows, so an unknown address may become known). */
#define FUNC_MEMO_SLOTS 256
struct func_memo {
	uint64_t addr, start;
	uint8_t known;
};

/* What every block reads first, then the tracker (its hot fields lead). */
struct vcpu_state {
	struct callstack *cs;
	const struct tb_info *prev;
	uint32_t prev_trap_span; /* prev->trap_span, 0 without prev: read on every block */
	uint64_t base;      /* st.started when prev began (kept only when prev_trap_span) */
	uint64_t insns;
	struct rv_tracker trk;
	struct vcpu_state *retired_next; /* list of stacks of finished threads */
	struct func_memo funcs[FUNC_MEMO_SLOTS];
};

#define MAX_VCPUS 4096

static struct plugin_state {
	struct plugin_output out;
	struct guest_modules mods;  /* guest ELF files with their biases, added as found */
	int xlen;
	int raw;
	struct cs_options csopts;
	struct cs_host host;
	uint64_t budget, checkpoint, next_checkpoint;
	uint64_t total;             /* instructions, all vcpus (kept when budget/checkpoint) */
	/* Inline counter: before each instruction that may trap, QEMU adds the distance from
	 * the previous one, so during a block st.started - base = instructions begun so far.
	 * It tells how far a block got when a fault cut it short (one thread only: the
	 * counter is shared). */
	uint64_t started;
	unsigned nvcpus;
	int64_t guest_base;         /* host address - guest address */
	int guest_base_known;
	pthread_mutex_t lock;       /* vcpu table, TB cache, output */
	struct vcpu_state *vcpus[MAX_VCPUS];
	struct vcpu_state *retired; /* threads that ended (QEMU reuses their vcpu index) */
	struct hashmap tbs;         /* pc (hashmap_*_u64) -> its translations (a chain) */
	uint64_t handlers[RV_MAX_SIGNAL + 1]; /* from rt_sigaction, for new threads too */
	int finished;
	int written;                /* the final profile is on disk */
	int installed;
	pid_t pid;                  /* the QEMU process the plugin was installed in */
	FILE *pcs_out;              /* pcs=PATH dump, under lock (pcs_file's stream) */
	struct out_file pcs_file;
} st = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* cs_host.func_of of a vcpu's stack (CTX: the vcpu_state). */
static int vcpu_func_of(void *ctx, uint64_t addr, uint64_t *start)
{
	struct func_memo *m = &((struct vcpu_state *)ctx)->funcs[(addr >> 1) & (FUNC_MEMO_SLOTS - 1)];
	if (m->known && m->addr == addr) {
		*start = m->start;
		return 1;
	}
	if (!guest_modules_func_of(&st.mods, addr, start))
		return 0;
	m->addr = addr;
	m->start = *start;
	m->known = 1;
	return 1;
}

/* vcpu_get's first call for IDX (out of line: every block calls vcpu_get). */
static __attribute__((noinline)) struct vcpu_state *vcpu_create(unsigned idx)
{
	struct vcpu_state *v;
	pthread_mutex_lock(&st.lock);
	v = st.vcpus[idx];
	if (!v) {
		v = calloc(1, sizeof(*v));
		struct cs_host host = st.host;
		host.ctx = v;
		host.func_of = vcpu_func_of;
		v->cs = v ? cs_new(&host, &st.csopts) : NULL;
		if (!v || !v->cs) {
			fprintf(stderr, "tephra plugin: out of memory\n");
			abort();
		}
		rv_tracker_init(&v->trk, v->cs);
		st.nvcpus++;
		for (int sig = 1; sig <= RV_MAX_SIGNAL; sig++)
			rv_tracker_set_handler(&v->trk, sig, st.handlers[sig]);
		__atomic_store_n(&st.vcpus[idx], v, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&st.lock);
	return v;
}

static inline struct vcpu_state *vcpu_get(unsigned idx)
{
	if (idx >= MAX_VCPUS)
		idx = MAX_VCPUS - 1; /* shares a stack: wrong but never out of bounds */
	struct vcpu_state *v = __atomic_load_n(&st.vcpus[idx], __ATOMIC_ACQUIRE);
	return __builtin_expect(v != NULL, 1) ? v : vcpu_create(idx);
}

/* A new guest thread.  QEMU user mode hands it the index of a thread that ended, if
 * any: keep that thread's stack for the output and start a fresh one. */
static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	if (vcpu >= MAX_VCPUS)
		return;
	pthread_mutex_lock(&st.lock);
	struct vcpu_state *old = st.vcpus[vcpu];
	if (old && old->trk.started) {
		old->retired_next = st.retired;
		st.retired = old;
		__atomic_store_n(&st.vcpus[vcpu], NULL, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&st.lock);
	vcpu_get(vcpu);
}

/* Writes the profile of every vcpu (FINAL: also the counters line, with WHY). */
static void write_profile(int final, const char *why)
{
	pthread_mutex_lock(&st.lock);
	size_t n = 0, cap = MAX_VCPUS;
	for (struct vcpu_state *r = st.retired; r; r = r->retired_next)
		cap++;
	struct callstack **stacks = malloc(cap * sizeof(*stacks));
	if (!stacks) {
		pthread_mutex_unlock(&st.lock);
		fprintf(stderr, "tephra plugin: out of memory writing the profile\n");
		return;
	}
	for (size_t i = 0; i < MAX_VCPUS; i++)
		if (st.vcpus[i])
			stacks[n++] = st.vcpus[i]->cs;
	for (struct vcpu_state *r = st.retired; r; r = r->retired_next)
		stacks[n++] = r->cs;
	struct trace_namer namer = { guest_modules_name, &st.mods };
	plugin_output_write(&st.out, stacks, n, &namer, st.raw, final,
			    why);
	free(stacks);
	pthread_mutex_unlock(&st.lock);
}

static void finish(const char *why)
{
	/* A guest fork() forks QEMU and us: only the original process writes the file. */
	if (getpid() != st.pid)
		return;
	if (__atomic_exchange_n(&st.finished, 1, __ATOMIC_ACQ_REL)) {
		/* Another thread is writing: wait, the caller may _exit() next. */
		while (!__atomic_load_n(&st.written, __ATOMIC_ACQUIRE))
			sched_yield();
		return;
	}
	write_profile(1, why);
	struct tephra_error err;
	if (st.pcs_out && out_file_commit(&st.pcs_file, &err) != 0)
		fprintf(stderr, "tephra plugin: cannot write the pc dump: %s\n", err.msg);
	st.pcs_out = NULL;
	__atomic_store_n(&st.written, 1, __ATOMIC_RELEASE);
}

/* Instructions of TB from pc AT to its end (AT inside TB). */
static uint32_t insns_from(const struct tb_info *tb, uint64_t at)
{
	for (uint32_t i = 0; i < tb->n; i++)
		if (tb->pcs[i] == at)
			return tb->n - i;
	return 0;
}

/* The previous block of V stopped before its end (a fault in one of its instructions):
 * take back what it did not run, and forget its exit, which did not happen.  Exact for
 * one thread; blocks that hold a function start are left as counted. */
static __attribute__((noinline)) void undo_cut(struct vcpu_state *v, uint64_t ran);

static inline void cut_short(struct vcpu_state *v)
{
	/* v->prev_trap_span != 0: there is a previous block and it may trap.  The common
	 * case (it ran past its last trapping instruction) first, on the vcpu's own state. */
	uint64_t ran = __atomic_load_n(&st.started, __ATOMIC_RELAXED) - v->base;
	if (__builtin_expect(ran >= v->prev_trap_span || ran == 0, 1))
		return;
	if (st.nvcpus != 1 || v->prev->nsplits)
		return;
	undo_cut(v, ran);
}

/* cut_short's rare case: the previous block ran only its first RAN instructions. */
static void undo_cut(struct vcpu_state *v, uint64_t ran)
{
	const struct tb_info *prev = v->prev;
	uint32_t undo = prev->n - (uint32_t)ran;
	if (st.raw) {
		for (uint32_t i = (uint32_t)ran; i < prev->n; i++)
			--*cs_leaf_counter(v->cs, prev->pcs[i]);
	} else {
		*cs_counter(v->cs) -= undo;
	}
	v->insns -= undo;
	if (st.budget || st.checkpoint)
		__atomic_fetch_sub(&st.total, undo, __ATOMIC_RELAXED);
	v->trk.flow = RV_FLOW_NONE;
	v->trk.expect = prev->pcs[ran - 1]; /* the faulting instruction */
	v->prev = NULL;
	v->prev_trap_span = 0;
}

static void arrive(struct vcpu_state *v, const struct tb_info *tb)
{
	const struct tb_info *prev = v->prev;
	struct rv_tracker *t = &v->trk;
	/* The previous block stopped early and execution resumes inside it (an instruction
	 * QEMU re-executes on its own, e.g. atomics in a multi-threaded guest): take back
	 * the instructions it did not run, it is not a transfer. */
	if (prev && tb->pc > prev->pc && tb->pc < prev->end && t->started &&
	    (t->flow == RV_FLOW_NONE || t->flow == RV_FLOW_BRANCH || t->flow == RV_FLOW_JUMP ||
	     t->flow == RV_FLOW_CALL) &&
	    tb->pc != t->target) {
		uint32_t undo = insns_from(prev, tb->pc);
		if (undo) {
			if (!st.raw)
				*cs_counter(v->cs) -= undo;
			v->insns -= undo;
			if (st.budget || st.checkpoint)
				__atomic_fetch_sub(&st.total, undo, __ATOMIC_RELAXED);
			t->flow = RV_FLOW_NONE;
			t->expect = tb->pc;
			return;
		}
	}
	rv_tracker_arrive_slow(t, tb->pc); /* tb_enter took the local case */
}

/* charge_tb for blocks that hold a function start, and in raw mode. */
static __attribute__((noinline)) void charge_tb_parts(struct vcpu_state *v, const struct tb_info *tb,
						      uint32_t count)
{
	uint32_t i = 0, s = 0;
	while (i < count) {
		uint32_t stop = count;
		if (s < tb->nsplits && tb->splits[s].idx < stop)
			stop = tb->splits[s].idx;
		if (st.raw) {
			for (; i < stop; i++)
				++*cs_leaf_counter(v->cs, tb->pcs[i]);
		} else {
			*cs_counter(v->cs) += stop - i;
			i = stop;
		}
		if (s < tb->nsplits && i == tb->splits[s].idx && i < count)
			rv_tracker_func_start(&v->trk, tb->splits[s++].pc);
	}
}

/* Charges the first COUNT instructions of TB; a function starting inside the block takes
 * over the top frame from its first instruction on. */
static inline void charge_tb(struct vcpu_state *v, const struct tb_info *tb, uint32_t count)
{
	v->insns += count;
	if (__builtin_expect(!tb->nsplits && !st.raw, 1))
		*cs_counter(v->cs) += count;
	else
		charge_tb_parts(v, tb, count);
}

static void budget_reached(struct vcpu_state *v, const struct tb_info *tb, uint64_t allowed)
{
	/* Charge only the first ALLOWED instructions of this block, then stop. */
	charge_tb(v, tb, (uint32_t)allowed);
	char why[128];
	snprintf(why, sizeof(why), "budget of %" PRIu64 " instructions reached", st.budget);
	finish(why);
	fflush(NULL);
	_exit(0);
}

static void dump_pcs(const struct tb_info *tb, uint32_t count)
{
	uint64_t le[512];
	pthread_mutex_lock(&st.lock);
	for (uint32_t i = 0; i < count;) {
		uint32_t k = 0;
		for (; k < 512 && i < count; k++, i++)
			le[k] = htole64(tb->pcs[i]);
		fwrite(le, sizeof(le[0]), k, st.pcs_out);
	}
	pthread_mutex_unlock(&st.lock);
}

/* Leaves TB: its exit is pending until the next block arrives. */
static inline void leave_tb(struct vcpu_state *v, const struct tb_info *tb)
{
	if (tb->last.flow == RV_FLOW_NONE) {
		v->trk.flow = RV_FLOW_NONE;
		v->trk.expect = tb->end;
	} else {
		rv_tracker_leave(&v->trk, tb->last_pc, &tb->last, tb->cross);
	}
}

/* What every block does first: settle the previous block if a fault may have cut it
 * short, arrive here, and become the previous block.  A branch or jump inside one
 * function arriving where it leads needs nothing more (it cannot be the re-execution
 * arrive() looks for: that lands elsewhere). */
static inline __attribute__((always_inline)) void tb_enter(struct vcpu_state *v,
							   const struct tb_info *tb)
{
	if (v->prev_trap_span)
		cut_short(v);
	if (rv_tracker_must_arrive(&v->trk, tb->pc) && !rv_tracker_arrive_local(&v->trk, tb->pc))
		arrive(v, tb);
	if (tb->starts_func)
		rv_tracker_func_start(&v->trk, tb->pc);
	v->prev = tb;
	v->prev_trap_span = tb->trap_span;
}

/* tb_exec for the common case, chosen at translation: no pc dump, budget, checkpoint or
 * raw mode, and no function start inside the block. */
static void tb_exec_plain(unsigned int vcpu, void *udata)
{
	const struct tb_info *tb = udata;
	struct vcpu_state *v = vcpu_get(vcpu);
	tb_enter(v, tb);
	if (tb->trap_span)
		v->base = __atomic_load_n(&st.started, __ATOMIC_RELAXED);
	v->insns += tb->n;
	*cs_counter(v->cs) += tb->n;
	leave_tb(v, tb);
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	const struct tb_info *tb = udata;
	struct vcpu_state *v = vcpu_get(vcpu);
	if (st.pcs_out) {
		uint64_t left = st.budget ? st.budget - __atomic_load_n(&st.total, __ATOMIC_RELAXED) : tb->n;
		dump_pcs(tb, tb->n < left ? tb->n : (uint32_t)left);
	}
	tb_enter(v, tb);
	v->base = __atomic_load_n(&st.started, __ATOMIC_RELAXED);
	if (st.budget || st.checkpoint) {
		uint64_t before = __atomic_fetch_add(&st.total, tb->n, __ATOMIC_RELAXED);
		if (st.budget && before + tb->n > st.budget)
			budget_reached(v, tb, st.budget > before ? st.budget - before : 0);
		if (st.checkpoint && before + tb->n >= st.next_checkpoint) {
			st.next_checkpoint += st.checkpoint;
			/* This block's instructions first, so the file is exact at this point. */
			charge_tb(v, tb, tb->n);
			write_profile(0, NULL);
			goto leave;
		}
	}
	charge_tb(v, tb, tb->n);
leave:
	leave_tb(v, tb);
}

static uint8_t cross_of(uint64_t from, uint64_t to)
{
	uint64_t a, b;
	plugin_modules_ensure(&st.mods, &st.lock, st.guest_base, to);
	if (!guest_modules_func_of(&st.mods, from, &a) || !guest_modules_func_of(&st.mods, to, &b))
		return RV_SAME_FUNC;
	return a != b ? RV_OTHER_FUNC : RV_SAME_FUNC;
}

static int same_tb(const struct tb_info *a, const struct tb_info *b)
{
	return a->pc == b->pc && a->n == b->n && a->end == b->end && a->last_pc == b->last_pc &&
	       a->last.flow == b->last.flow && a->last.imm == b->last.imm;
}

/* Returns the shared info of an identical earlier translation, or keeps NEW. */
static struct tb_info *intern_tb(struct tb_info *nw)
{
	pthread_mutex_lock(&st.lock);
	struct hashmap_entry *head = hashmap_entry(&st.tbs, hashmap_intern_u64(&st.tbs, nw->pc, NULL));
	for (struct tb_info *e = (struct tb_info *)(uintptr_t)head->value; e; e = e->next_same_pc) {
		if (same_tb(e, nw) &&
		    (!nw->pcs || !memcmp(e->pcs, nw->pcs, nw->n * sizeof(*nw->pcs)))) {
			pthread_mutex_unlock(&st.lock);
			free(nw->pcs);
			free(nw->splits);
			free(nw);
			return e;
		}
	}
	nw->next_same_pc = (struct tb_info *)(uintptr_t)head->value;
	head->value = (uintptr_t)nw;
	pthread_mutex_unlock(&st.lock);
	return nw;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	if (n == 0)
		return;
	struct tb_info *info = calloc(1, sizeof(*info));
	if (!info)
		return;
	info->pc = qemu_plugin_tb_vaddr(tb);
	info->n = (uint32_t)n;
	info->pcs = calloc(n, sizeof(*info->pcs));
	if (!info->pcs) {
		free(info);
		return;
	}
	if (!st.guest_base_known) {
		struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
		st.guest_base = (int64_t)((uint64_t)(uintptr_t)qemu_plugin_insn_haddr(first) -
					  qemu_plugin_insn_vaddr(first));
		st.guest_base_known = 1;
	}
	uint32_t counted = 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		info->pcs[i] = pc;
		const uint8_t *idata = qemu_plugin_insn_data(insn);
		size_t isize = qemu_plugin_insn_size(insn);
		uint32_t ibits = 0;
		for (size_t k = 0; k < isize && k < 4; k++)
			ibits |= (uint32_t)idata[k] << (8 * k);
		if (rv_may_trap(ibits)) {
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &st.started, i + 1 - counted);
			counted = (uint32_t)i + 1;
		}
		plugin_modules_ensure(&st.mods, &st.lock, st.guest_base, pc);
		uint64_t start;
		if (guest_modules_func_of(&st.mods, pc, &start) && start == pc) {
			if (i == 0) {
				info->starts_func = 1;
			} else {
				struct tb_split *ns = realloc(info->splits, (info->nsplits + 1) * sizeof(*ns));
				if (ns) {
					info->splits = ns;
					info->splits[info->nsplits++] = (struct tb_split){ (uint32_t)i, pc };
				}
			}
		}
		if (i + 1 < n)
			continue;
		size_t size = qemu_plugin_insn_size(insn);
		const uint8_t *data = qemu_plugin_insn_data(insn);
		uint32_t bits = 0;
		for (size_t k = 0; k < size && k < 4; k++)
			bits |= (uint32_t)data[k] << (8 * k);
		rv_decode(bits, st.xlen, &info->last);
		info->last_pc = pc;
		info->end = pc + size;
		if (info->last.flow == RV_FLOW_JUMP || info->last.flow == RV_FLOW_BRANCH)
			info->cross = cross_of(pc, pc + (uint64_t)(int64_t)info->last.imm);
	}
	/* And one more on the instruction after the last that may trap: reaching it means
	 * that one did not fault (after it nothing can stop the block). */
	if (counted && counted < n) {
		qemu_plugin_register_vcpu_insn_exec_inline(qemu_plugin_tb_get_insn(tb, counted),
							   QEMU_PLUGIN_INLINE_ADD_U64, &st.started, 1);
		counted++;
	}
	info->trap_span = counted;
	info = intern_tb(info);
	int plain = !st.pcs_out && !st.budget && !st.checkpoint && !st.raw && !info->nsplits;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, plain ? tb_exec_plain : tb_exec,
					     QEMU_PLUGIN_CB_NO_REGS, info);
}

/* Reads 8 bytes of guest memory without risking a fault (the guest may pass anything). */
static int read_guest_u64(uint64_t gaddr, uint64_t *out)
{
	if (!st.guest_base_known)
		return -1;
	struct iovec local = { out, sizeof(*out) };
	struct iovec remote = { (void *)(uintptr_t)(gaddr + (uint64_t)st.guest_base), sizeof(*out) };
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == sizeof(*out) ? 0 : -1;
}

#define SYS_KILL 129
#define SYS_TKILL 130
#define SYS_TGKILL 131

static void vcpu_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
			 uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
			 uint64_t a7, uint64_t a8)
{
	(void)id, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	struct vcpu_state *v = vcpu_get(vcpu);
	rv_tracker_syscall(&v->trk, num, a1, a2);
	if (num == RV_SYSCALL_RT_SIGACTION && a2) {
		uint64_t handler;
		/* struct sigaction as the kernel takes it: the handler comes first. */
		int ok = read_guest_u64(a2, &handler) == 0;
		if (st.xlen == 32)
			handler &= 0xffffffffu; /* a 32-bit pointer, then sa_flags */
		if (ok && handler > 1 && a1 >= 1 && a1 <= RV_MAX_SIGNAL) {
			pthread_mutex_lock(&st.lock);
			st.handlers[a1] = handler;
			for (size_t i = 0; i < MAX_VCPUS; i++)
				if (st.vcpus[i])
					rv_tracker_set_handler(&st.vcpus[i]->trk, (int)a1, handler);
			pthread_mutex_unlock(&st.lock);
		}
	}
	(void)a3;
}

/* QEMU 7.2 does not run plugin exit callbacks when the guest dies of a signal: it resets
 * the host signal to its default action and kill()s itself.  When the plugin is also
 * LD_PRELOADed (tephra emu does that) this kill() is ours, so the partial profile is
 * written first.  Otherwise (plain dlopen) it interposes nothing. */
TEPHRA_PLUGIN_EXPORT int kill(pid_t pid, int sig)
{
	if (st.installed && pid == getpid() && sig > 0) {
		/* The block that faulted stopped at the faulting instruction. */
		for (size_t i = 0; i < MAX_VCPUS && st.nvcpus == 1; i++)
			if (st.vcpus[i])
				cut_short(st.vcpus[i]);
		char why[128];
		snprintf(why, sizeof(why), "guest killed by signal %d (%s): the profile is partial",
			 sig, strsignal(sig));
		finish(why);
	}
	return (int)syscall(SYS_kill, pid, sig);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id, (void)udata;
	finish(NULL);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

static int bool_arg(const char *v)
{
	return !strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "1");
}

TEPHRA_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					     int argc, char **argv)
{
	if (info->version.cur != TEPHRA_QEMU_PLUGIN_API_VERSION) {
		fprintf(stderr,
			"tephra plugin: built for QEMU plugin API version %d (QEMU 7.2), but this "
			"QEMU implements version %d (accepts %d..%d); rebuild against it\n",
			TEPHRA_QEMU_PLUGIN_API_VERSION, info->version.cur, info->version.min,
			info->version.cur);
		return -1;
	}
	if (info->system_emulation || strncmp(info->target_name, "riscv", 5) != 0) {
		fprintf(stderr, "tephra plugin: only RISC-V user-mode guests (qemu-riscv32/64), "
				"not %s%s\n", info->target_name,
			info->system_emulation ? " system emulation" : "");
		return -1;
	}
	st.xlen = strcmp(info->target_name, "riscv32") == 0 ? 32 : 64;
	const char *out = "tephra-emu.folded";
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		if (!eq) {
			fprintf(stderr, "tephra plugin: argument '%s' is not key=value\n", a);
			return -1;
		}
		size_t klen = (size_t)(eq - a);
		const char *val = eq + 1;
		int bad = 0;
		if (klen == 3 && !strncmp(a, "out", 3))
			out = val;
		else if (klen == 3 && !strncmp(a, "raw", 3))
			st.raw = bool_arg(val);
		else if (klen == 4 && !strncmp(a, "nest", 4))
			st.csopts.flags |= bool_arg(val) ? CS_OPT_NEST_TAIL : 0;
		else if (klen == 3 && !strncmp(a, "pcs", 3)) {
			struct tephra_error err;
			if (out_file_open(&st.pcs_file, val, &err) != 0) {
				fprintf(stderr, "tephra plugin: %s\n", err.msg);
				return -1;
			}
			st.pcs_out = st.pcs_file.f;
		} else if (klen == 6 && !strncmp(a, "budget", 6))
			bad = parse_u64(val, &st.budget);
		else if (klen == 10 && !strncmp(a, "checkpoint", 10))
			bad = parse_u64(val, &st.checkpoint);
		else {
			fprintf(stderr, "tephra plugin: unknown argument '%s'\n", a);
			return -1;
		}
		if (bad) {
			fprintf(stderr, "tephra plugin: '%s' is not a number\n", a);
			return -1;
		}
	}
	st.csopts.match = CS_MATCH_RETADDR;
	/* Function lookups go to the modules, found as the guest runs. */
	st.host = trace_libc_host(NULL);
	st.host.ctx = &st.mods;
	st.host.func_of = guest_modules_func_of;
	st.next_checkpoint = st.checkpoint;
	plugin_output_init(&st.out, out);

	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, vcpu_syscall);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	st.pid = getpid();
	st.installed = 1;
	return 0;
}
