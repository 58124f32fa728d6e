/* tg_requests.c - client requests (callgrind's and ours) and what they switch. */
#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_transtab.h"

#include "callgrind.h"
#include "tephra/grind.h"

#include "tg_tool.h"

static void discard_all_translations(void)
{
	VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "tephragrind");
}

static void clear_all_stacks(void)
{
	for (UInt i = 0; i < VG_N_THREADS; i++) {
		struct tg_thread *t = tg.threads[i];
		if (t)
			tg_empty_stack(t);
	}
}

void tg_start_instrumentation(ThreadId tid)
{
	if (tg.instrumenting)
		return;
	tg.instrumenting = tg.ever_started = True;
	tg.charged_upto = tg.icount;
	discard_all_translations();
	clear_all_stacks();
	/* This thread's stack is rebuilt now, from where the request was made; other
	 * threads rebuild theirs at their first instrumented block. */
	tg.running = tid;
	tg_seed_from_unwind(tid);
	tg_refresh_cur_fn();
}

void tg_stop_instrumentation(void)
{
	if (!tg.instrumenting)
		return;
	tg_charge();
	tg.instrumenting = False;
	discard_all_translations();
	clear_all_stacks();
	tg.cur_fn = TG_CUR_RECHECK;
}

void tg_zero_counts(void)
{
	for (UInt i = 0; i < VG_N_THREADS; i++)
		if (tg.threads[i] && tg.threads[i]->cs)
			cs_zero_weights(tg.threads[i]->cs);
	for (struct tg_retired *r = tg.retired; r; r = r->next)
		cs_zero_weights(r->cs);
}

/* Writes the counts so far to OUT.N and starts again from zero (callgrind's dumps). */
static void dump(void)
{
	tg_charge();
	tg.stats.dumps++;
	SizeT len = VG_(strlen)(tg.out_path) + 32;
	HChar *path = VG_(malloc)("tg.dump", len);
	VG_(snprintf)(path, len, "%s.%llu", tg.out_path, tg.stats.dumps);
	tg_write_output(path, NULL);
	VG_(free)(path);
	tg_zero_counts();
}

Bool tg_client_request(ThreadId tid, UWord *args, UWord *ret)
{
	switch (args[0]) {
	case VG_USERREQ__START_INSTRUMENTATION:
	case TEPHRA_GRIND_REQ_START:
		tg_start_instrumentation(tid);
		break;
	case VG_USERREQ__STOP_INSTRUMENTATION:
	case TEPHRA_GRIND_REQ_STOP:
		tg_stop_instrumentation();
		break;
	case VG_USERREQ__TOGGLE_COLLECT:
	case TEPHRA_GRIND_REQ_TOGGLE_COLLECT:
		tg_charge();
		tg.collecting = !tg.collecting;
		break;
	case VG_USERREQ__ZERO_STATS:
	case TEPHRA_GRIND_REQ_ZERO:
		tg_charge();
		tg_zero_counts();
		break;
	case VG_USERREQ__DUMP_STATS:
	case VG_USERREQ__DUMP_STATS_AT:
		dump();
		break;
	case TEPHRA_GRIND_REQ_SKIP_OBJ:
		if (args[1])
			tg_add_skip_obj((const HChar *)args[1]);
		break;
	default:
		return False;
	}
	*ret = 0;
	return True;
}
