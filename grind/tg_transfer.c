/* tg_transfer.c - turns what the instrumented code observed into call-stack transfers.
 *
 * Instrumented blocks count instructions into tg.icount and, at their first
 * instruction, compare tg.cur_fn with the id of their own function.  Only on a
 * mismatch is tg_on_block_entry called: after a call or a return (the block that ended
 * with one stored TG_CUR_CALL / TG_CUR_RET into tg.cur_fn), after a jump into another
 * function (tail call, longjmp, exception landing pad, PLT stub to its target), when a
 * signal handler starts, or when the running thread changed.  Blocks that stay inside
 * one function cost a load and a compare, nothing more.
 *
 * The shadow stack itself is src/callstack (matched by stack pointer, as on x86 a
 * return leaves SP just above the slot its call pushed); this file feeds it and
 * repairs what only a Valgrind host can repair (native unwinds, signal frames). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "tg_funcs.h"
#include "tg_tool.h"

static struct tg_thread *thread_of(ThreadId tid)
{
	return tg_thread_get(tid);
}

/* Adds the instructions counted since the last charge to the running thread's
 * current path.  Called before every change of path, so each instruction is charged
 * to the path in force when it ran. */
void tg_charge(void)
{
	ULong n = tg.icount - tg.charged_upto;
	tg.charged_upto = tg.icount;
	if (!n || !tg.collecting || tg.running == 0)
		return;
	struct tg_thread *t = thread_of(tg.running);
	if (!t->cs)
		return;
	if (tg.leaf)
		*cs_leaf_counter(t->cs, tg.leaf) += n;
	else
		*cs_counter(t->cs) += n;
}

/* --inline: the instructions that follow come from inline chain KEY. */
VG_REGPARM(1) void tg_set_leaf(UWord key)
{
	tg_charge();
	tg.leaf = key;
}

static Bool is_transfer(ULong how)
{
	return how == TG_CUR_CALL || how == TG_CUR_RET;
}

/* tg.cur_fn is about to be overwritten (thread switch, signal): a call or return the
 * running thread's last block announced moves into the thread's own state, so its
 * next block still sees it. */
static void absorb_pending(void)
{
	if (tg.running && is_transfer(tg.cur_fn))
		thread_of(tg.running)->pending_how = tg.cur_fn;
}

void tg_refresh_cur_fn(void)
{
	tg.cur_fn = TG_CUR_RECHECK;
	if (tg.running == 0)
		return;
	struct tg_thread *t = tg.threads[tg.running];
	if (!t || !t->cs || t->signal_pending || (t->nsig && t->sig_returned[t->nsig - 1]))
		return;
	if (t->pending_how) {
		tg.cur_fn = t->pending_how;
		return;
	}
	const struct cs_node *top = cs_current(t->cs);
	if (top->kind == CS_NODE_FUNC)
		tg.cur_fn = top->func;
}

/* Signal frames popped by a longjmp out of a handler end their handler records. */
static void drop_stale_signals(struct tg_thread *t)
{
	while (t->nsig && cs_depth(t->cs) < t->sig_depth[t->nsig - 1])
		t->nsig--;
}

static Bool in_altstack_handler(const struct tg_thread *t)
{
	return t->nsig > 0 && t->sig_alt[t->nsig - 1];
}

/* Code of function FID runs at PC while the top frame is another function's: a jump
 * between functions, a tail call (cs_jump).  Code in no object jumping into a
 * function counts (a thunk or JIT stub jumping to its target); a jump into code in
 * no object does not (the jumping function stays on top), nor does code that runs
 * while the outermost frames of a truncated stack are on top. */
static void jump_between(struct callstack *cs, ULong fid, Addr pc)
{
	const struct cs_node *top = cs_current(cs);
	if (top->kind == CS_NODE_FUNC && top->func != fid && fid != TG_FID_UNKNOWN &&
	    top->func != TG_FID_TRUNCATED)
		cs_jump(cs, top->func, pc);
}

static void jump_to(struct tg_thread *t, ULong fid, Addr pc, Addr sp)
{
	struct callstack *cs = t->cs;
	/* SP at or above a frame's SP: those frames are gone (longjmp, exception
	 * unwinding; a frame's SP is its caller's SP after it returns).  On an alternate
	 * signal stack SP says nothing about the frames of the interrupted code, so it is
	 * not used there. */
	if (!in_altstack_handler(t))
		cs_unwind_to_sp(cs, sp);
	drop_stale_signals(t);
	if (cs_depth(cs) == 0) {
		tg_seed_from_unwind(tg.running);
		return;
	}
	jump_between(cs, fid, pc);
}

static void return_to(struct tg_thread *t, ULong fid, Addr pc, Addr sp)
{
	struct callstack *cs = t->cs;
	if (t->nsig && cs_depth_after_sp_return(cs, sp) < t->sig_depth[t->nsig - 1]) {
		/* This return ends the handler's frame (cs_signal_sp gave it the SP its
		 * return leaves; with --tail-calls=nest, the tail calls nested on it end
		 * with it): the handler returned into the signal trampoline, rt_sigreturn
		 * follows.  Nothing is popped: the trampoline's instructions are charged
		 * to the handler until rt_sigreturn pops through the signal frame. */
		t->sig_returned[t->nsig - 1] = True;
		return;
	}
	ULong underflows = cs_get_stats(cs)->underflows;
	cs_return(cs, pc, sp);
	if (cs_get_stats(cs)->underflows != underflows) {
		/* A return with no frame to return to: the stack we kept is not the one
		 * the thread has.  Outside signal handlers, rebuild it from an unwind. */
		const struct cs_node *top = cs_current(cs);
		if (top->kind == CS_NODE_FUNC && top->func == fid)
			return;
		/* Returns into the frames a truncated unwind left out (tg_unwind.c) stay
		 * with them: rebuilding would cut the stack again, at every return. */
		if (top->kind == CS_NODE_FUNC && top->func == TG_FID_TRUNCATED)
			return;
		if (t->nsig == 0) {
			tg_empty_stack(t);
			tg_seed_from_unwind(tg.running);
			tg.stats.underflows_repaired++;
			return;
		}
	}
	drop_stale_signals(t);
	if (cs_depth(cs) == 0) {
		tg_seed_from_unwind(tg.running);
		tg.stats.underflows_repaired++;
		return;
	}
	jump_between(cs, fid, pc);
}

VG_REGPARM(3) void tg_on_block_entry(ULong fid, Addr pc, Addr sp)
{
	ULong how = tg.cur_fn;
	tg_charge();
	if (tg.running == 0)
		tg.running = VG_(get_running_tid)();
	struct tg_thread *t = thread_of(tg.running);
	if (!t->cs)
		return;
	if (!is_transfer(how))
		how = t->pending_how;
	t->pending_how = 0;
	struct callstack *cs = t->cs;
	if (t->signal_pending) {
		t->signal_pending = False;
		if (t->nsig < sizeof(t->sig_depth) / sizeof(t->sig_depth[0])) {
			/* SP points at the return address into the trampoline: the
			 * handler's return leaves SP one word above, as for a call. */
			cs_signal_sp(cs, t->signal_no, pc, t->signal_sp, (ULong)sp + sizeof(Addr));
			t->sig_depth[t->nsig] = cs_depth(cs);
			t->sig_returned[t->nsig] = False;
			t->sig_alt[t->nsig] = t->signal_alt;
			t->sig_saved_how[t->nsig] = t->signal_saved_how;
			t->nsig++;
		}
	} else if (t->nsig && t->sig_returned[t->nsig - 1]) {
		/* In the signal trampoline: charged to the handler until rt_sigreturn. */
	} else if (cs_depth(cs) == 0) {
		tg_seed_from_unwind(tg.running);
	} else if (how == TG_CUR_CALL) {
		/* SP now points at the pushed return address: the caller's SP after the
		 * matching return is one word above. */
		cs_call(cs, tg.call_key, pc, CS_NO_RETADDR, (ULong)sp + sizeof(Addr));
	} else if (how == TG_CUR_RET) {
		return_to(t, fid, pc, sp);
	} else {
		jump_to(t, fid, pc, sp);
	}
	tg_refresh_cur_fn();
}

void tg_thread_switch(ThreadId tid)
{
	tg_charge();
	absorb_pending();
	tg.running = tid;
	tg_refresh_cur_fn();
}

void tg_signal_deliver(ThreadId tid, Int sigNo, Bool alt_stack)
{
	if (!tg.instrumenting)
		return;
	tg_charge();
	absorb_pending();
	struct tg_thread *t = thread_of(tid);
	if (!t->cs)
		return;
	/* A signal before the thread's first instrumented block: give the interrupted
	 * code its stack first (the guest state is still the interrupted one). */
	if (cs_depth(t->cs) == 0 && !t->signal_pending)
		tg_seed_from_unwind(tid);
	t->signal_pending = True;
	t->signal_no = sigNo;
	t->signal_alt = alt_stack;
	t->signal_sp = VG_(get_SP)(tid);
	/* The call or return the interrupted code was in the middle of completes when
	 * the handler has returned. */
	t->signal_saved_how = t->pending_how;
	t->pending_how = 0;
	tg_refresh_cur_fn();
}

void tg_signal_return(ThreadId tid, Int sigNo)
{
	(void)sigNo;
	tg_charge();
	struct tg_thread *t = thread_of(tid);
	if (t->signal_pending) {
		/* The handler never ran instrumented code. */
		t->signal_pending = False;
		t->pending_how = t->signal_saved_how;
	} else if (t->nsig && t->cs) {
		t->nsig--;
		cs_sigreturn(t->cs);
		t->pending_how = t->sig_saved_how[t->nsig];
	}
	tg_refresh_cur_fn();
}
