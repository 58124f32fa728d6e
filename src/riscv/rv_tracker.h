/* rv_tracker.h - drives a struct callstack from a RISC-V instruction stream.
 *
 * Freestanding (QEMU plugin, offline readers and the C API share it).  The host tells
 * the tracker, block by block (a QEMU translation block) or instruction by instruction
 * (a PC dump), where execution ARRIVES and how the block it just charged LEAVES (the
 * control flow of its last instruction).  The transfer is resolved at the next arrival,
 * when the real target is known: that is how indirect calls and returns get their
 * target without reading registers.
 *
 * Protocol per block:   rv_tracker_arrive(pc)  (only needed when rv_tracker_must_arrive)
 *                       *cs_counter(cs) += instructions of the block
 *                       rv_tracker_leave(last insn)
 * so each instruction is charged to the stack in force before its own transfer.
 *
 * Arrival somewhere the previous block cannot lead (not its static target, not its
 * fall-through, after a non-indirect exit) is an asynchronous entry: a signal handler.
 * It pushes "[signal N]" (N from rv_tracker_set_handler, else 0) and the handler's
 * frame.  rt_sigreturn pops it: hosts that see system calls say so with
 * rv_tracker_syscall; otherwise an ecall that does not come back to pc + 4 while a signal
 * frame is live is taken as the sigreturn. */
#ifndef TEPHRA_RISCV_RV_TRACKER_H
#define TEPHRA_RISCV_RV_TRACKER_H

#include "callstack/callstack.h"
#include "riscv/riscv_insn.h"

#define RV_MAX_SIGNAL 64
#define RV_SYSCALL_RT_SIGRETURN 139
#define RV_SYSCALL_RT_SIGACTION 134

/* Whether a static jump/branch target lies in another function than its source. */
enum rv_cross {
	RV_SAME_FUNC = 0,  /* never touches the stack */
	RV_OTHER_FUNC = 1, /* a tail call if taken */
	RV_CROSS_ASK = 2,  /* unknown here: let the callstack's symbol lookup decide */
};

/* Pending-exit value for instructions of unknown code (no bytes to decode: a trampoline
 * outside the guest's ELF): the host keeps it while execution stays in unknown code and
 * arrives normally when it comes back. */
#define RV_FLOW_UNKNOWN 0xff

struct rv_tracker_stats {
	uint64_t async_entries; /* arrivals the previous block could not lead to */
};

struct rv_tracker {
	struct callstack *cs;
	uint64_t expect;      /* next pc when nothing is pending */
	uint64_t from;        /* pc of the pending exit instruction */
	uint64_t target;      /* its static target */
	uint8_t flow;         /* enum rv_flow of the pending exit, RV_FLOW_NONE = none */
	uint8_t len;
	uint8_t cross;        /* enum rv_cross */
	uint8_t started;
	uint8_t sees_syscalls;     /* host calls rv_tracker_syscall */
	uint8_t sigreturn_pending;
	uint64_t handlers[RV_MAX_SIGNAL + 1];
	struct rv_tracker_stats stats;
};

/* T must be zeroed by the caller (static or alloc) before init. */
void rv_tracker_init(struct rv_tracker *t, struct callstack *cs);

static inline int rv_tracker_must_arrive(const struct rv_tracker *t, uint64_t pc)
{
	return t->flow != RV_FLOW_NONE || pc != t->expect;
}

/* Execution arrives at PC (start of a block or of an instruction), every case; hosts
 * call rv_tracker_arrive (below), which takes the local one inline.  The first arrival
 * seeds the stack with PC's function. */
void rv_tracker_arrive_slow(struct rv_tracker *t, uint64_t pc);

/* The most common arrival, inline: a static branch or jump that stays in its function
 * arriving where it leads (taken, or a branch not taken) leaves the stack as it is.
 * Returns 1 if that was the case (the exit is resolved), 0 if rv_tracker_arrive_slow
 * must resolve it. */
static inline int rv_tracker_arrive_local(struct rv_tracker *t, uint64_t pc)
{
	if ((t->flow == RV_FLOW_BRANCH || t->flow == RV_FLOW_JUMP) && t->cross == RV_SAME_FUNC &&
	    t->started && (pc == t->target || (t->flow == RV_FLOW_BRANCH && pc == t->from + t->len))) {
		t->flow = RV_FLOW_NONE;
		return 1;
	}
	return 0;
}

/* An arrival at PC (rv_tracker_arrive_slow's rules), the local case first. */
static inline void rv_tracker_arrive(struct rv_tracker *t, uint64_t pc)
{
	if (!rv_tracker_arrive_local(t, pc))
		rv_tracker_arrive_slow(t, pc);
}

/* The block just charged ends with the instruction at PC (decoded as INSN).  CROSS is
 * only read for static jumps and branches. */
static inline void rv_tracker_leave(struct rv_tracker *t, uint64_t pc, const struct rv_insn *insn,
				    uint8_t cross)
{
	t->flow = insn->flow;
	t->from = pc;
	t->len = insn->len;
	t->target = pc + (uint64_t)(int64_t)insn->imm;
	t->cross = cross;
	t->expect = pc + insn->len;
}

/* Execution is at PC, the first instruction of a function (per the symbol table).  If
 * the top frame is another function, control fell through (or branched) into this one
 * without a call: like a jump between functions, it is a tail call, so every instruction
 * is charged to the function whose symbol covers it (e.g. the -msave-restore millicode
 * __riscv_restore_N entry points fall through into each other). */
static inline void rv_tracker_func_start(struct rv_tracker *t, uint64_t pc)
{
	const struct cs_node *top = t->cs->top;
	if (top->kind == CS_NODE_FUNC && top->func != pc)
		cs_tail_call(t->cs, 0, pc);
}

/* A system call NUM with first argument A0, A1 (hosts that see system calls). */
void rv_tracker_syscall(struct rv_tracker *t, int64_t num, uint64_t a0, uint64_t a1);

/* Records that signal SIGNO is handled at HANDLER (so its entries are named). */
void rv_tracker_set_handler(struct rv_tracker *t, int signo, uint64_t handler);

#endif
