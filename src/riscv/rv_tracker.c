/* rv_tracker.c - RISC-V control flow to callstack transfers (see rv_tracker.h). */
#include "riscv/rv_tracker.h"

void rv_tracker_init(struct rv_tracker *t, struct callstack *cs)
{
	t->cs = cs;
	t->flow = RV_FLOW_NONE;
}

static void async_entry(struct rv_tracker *t, uint64_t pc)
{
	int signo = 0;
	for (int i = 1; i <= RV_MAX_SIGNAL; i++) {
		if (t->handlers[i] == pc) {
			signo = i;
			break;
		}
	}
	t->stats.async_entries++;
	cs_signal(t->cs, signo, pc, 0);
}

static int is_handler(const struct rv_tracker *t, uint64_t pc)
{
	for (int i = 1; i <= RV_MAX_SIGNAL; i++)
		if (t->handlers[i] == pc)
			return 1;
	return 0;
}

/* A return or indirect jump "to" PC while a block was cut short by a fault looks like a
 * transfer to the handler.  Returns never land on a function's first instruction, and
 * no frame expects a return there: take it as the signal it is. */
static int looks_async(const struct rv_tracker *t, uint64_t pc)
{
	const struct callstack *cs = t->cs;
	if (is_handler(t, pc))
		return 1;
	uint64_t start;
	return cs->host.func_of && cs->host.func_of(cs->host.ctx, pc, &start) && start == pc;
}

static int in_signal(const struct rv_tracker *t)
{
	for (const struct cs_node *n = t->cs->top; n; n = n->parent)
		if (n->kind == CS_NODE_SIGNAL)
			return 1;
	return 0;
}

static void static_jump(struct rv_tracker *t, uint64_t from, uint64_t to, uint8_t cross)
{
	if (cross == RV_OTHER_FUNC)
		cs_tail_call(t->cs, from, to);
	else if (cross == RV_CROSS_ASK)
		cs_jump(t->cs, from, to);
}

void rv_tracker_arrive_slow(struct rv_tracker *t, uint64_t pc)
{
	if (!t->started) {
		struct cs_seed_frame f = { pc, 0, CS_NO_RETADDR, 0 };
		t->started = 1;
		t->flow = RV_FLOW_NONE;
		cs_seed(t->cs, &f, 1);
		return;
	}
	uint8_t flow = t->flow;
	uint64_t from = t->from, next = from + t->len;
	t->flow = RV_FLOW_NONE;
	switch (flow) {
	case RV_FLOW_NONE:
		if (pc != t->expect)
			async_entry(t, pc);
		return;
	case RV_FLOW_BRANCH:
		if (pc == t->target && pc != next) {
			static_jump(t, from, pc, t->cross);
			return;
		}
		if (pc != next)
			async_entry(t, pc);
		return;
	case RV_FLOW_JUMP:
		static_jump(t, from, t->target, t->cross);
		if (pc != t->target)
			async_entry(t, pc);
		return;
	case RV_FLOW_CALL:
		cs_call(t->cs, from, t->target, next, 0);
		if (pc != t->target)
			async_entry(t, pc);
		return;
	case RV_FLOW_CALL_IND:
		cs_call(t->cs, from, pc, next, 0);
		return;
	case RV_FLOW_JUMP_IND:
		if (is_handler(t, pc)) {
			async_entry(t, pc);
			return;
		}
		cs_jump(t->cs, from, pc);
		return;
	case RV_FLOW_RETURN:
		if (cs_top_retaddr(t->cs) != pc && looks_async(t, pc)) {
			async_entry(t, pc);
			return;
		}
		cs_return(t->cs, pc, 0);
		return;
	case RV_FLOW_POP_PUSH:
		cs_return(t->cs, pc, 0);
		cs_call(t->cs, from, pc, next, 0);
		return;
	case RV_FLOW_ECALL:
		if (t->sigreturn_pending) {
			t->sigreturn_pending = 0;
			cs_sigreturn(t->cs);
			return;
		}
		if (pc == next)
			return;
		if (!t->sees_syscalls && in_signal(t)) {
			cs_sigreturn(t->cs);
			return;
		}
		async_entry(t, pc);
		return;
	case RV_FLOW_UNKNOWN:
		if (t->cs->top->kind == CS_NODE_SIGNAL) {
			/* Unknown code right in a signal frame is the sigreturn trampoline
			 * (the handler has returned); coming back from it is the sigreturn. */
			cs_sigreturn(t->cs);
			return;
		}
		cs_jump(t->cs, from, pc);
		return;
	default: /* RV_FLOW_TRAP */
		if (pc != next)
			async_entry(t, pc);
		return;
	}
}

void rv_tracker_syscall(struct rv_tracker *t, int64_t num, uint64_t a0, uint64_t a1)
{
	(void)a1;
	t->sees_syscalls = 1;
	if (num == RV_SYSCALL_RT_SIGRETURN)
		t->sigreturn_pending = 1;
	(void)a0;
}

void rv_tracker_set_handler(struct rv_tracker *t, int signo, uint64_t handler)
{
	if (signo > 0 && signo <= RV_MAX_SIGNAL)
		t->handlers[signo] = handler;
}
