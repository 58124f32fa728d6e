/* tg_instrument.c - the VEX IR instrumentation of tephragrind.
 *
 * Per superblock:
 *   - at its start: if (tg.cur_fn != ID of this block's function)
 *         tg_on_block_entry(ID, block address, guest SP)      (a guarded dirty call)
 *   - instruction counting: one IMark per guest instruction; the count of IMarks seen
 *     since the last flush is added to tg.icount before every side exit and at the
 *     end, so a taken exit counts exactly the instructions that ran before it;
 *   - at the end: a block ending in a call or a return stores TG_CUR_CALL/TG_CUR_RET
 *     into tg.cur_fn, which forces the helper in the next block.
 * Chasing across branches is off (tg_main.c), so a block is a single entry point in
 * one function and its first IMark is where control arrived. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "libvex_guest_offsets.h"

#include "tg_funcs.h"
#include "tg_inline.h"
#include "tg_tool.h"

#if defined(VGA_amd64)
#define TG_OFFSET_SP OFFSET_amd64_RSP
#else
#error "tephragrind supports amd64 only"
#endif

static IRExpr *addr_of(const void *p)
{
	return IRExpr_Const(IRConst_U64((ULong)(Addr)p));
}

/* tg.icount += N */
static void add_count(IRSB *sb, UInt n)
{
	IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
	IRTemp sum = newIRTemp(sb->tyenv, Ity_I64);
	addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr_of(&tg.icount))));
	addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
							 IRExpr_Const(IRConst_U64(n)))));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, addr_of(&tg.icount), IRExpr_RdTmp(sum)));
}

static void store_cur_fn(IRSB *sb, ULong v)
{
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, addr_of(&tg.cur_fn), IRExpr_Const(IRConst_U64(v))));
}

/* if (tg.cur_fn != fid) tg_on_block_entry(fid, pc, SP) */
static void add_entry_check(IRSB *sb, ULong fid, Addr pc)
{
	IRTemp cur = newIRTemp(sb->tyenv, Ity_I64);
	IRTemp differ = newIRTemp(sb->tyenv, Ity_I1);
	IRTemp sp = newIRTemp(sb->tyenv, Ity_I64);
	addStmtToIRSB(sb, IRStmt_WrTmp(cur, IRExpr_Load(Iend_LE, Ity_I64, addr_of(&tg.cur_fn))));
	addStmtToIRSB(sb, IRStmt_WrTmp(differ, IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(cur),
							    IRExpr_Const(IRConst_U64(fid)))));
	addStmtToIRSB(sb, IRStmt_WrTmp(sp, IRExpr_Get(TG_OFFSET_SP, Ity_I64)));
	IRDirty *d = unsafeIRDirty_0_N(3, "tg_on_block_entry",
				       VG_(fnptr_to_fnentry)(&tg_on_block_entry),
				       mkIRExprVec_3(IRExpr_Const(IRConst_U64(fid)),
						     IRExpr_Const(IRConst_U64(pc)),
						     IRExpr_RdTmp(sp)));
	d->guard = IRExpr_RdTmp(differ);
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* --inline: charge what follows to inline chain KEY (a helper: the chain is per
 * call path, known only at run time). */
static void add_set_leaf(IRSB *sb, UInt key)
{
	IRDirty *d = unsafeIRDirty_0_N(1, "tg_set_leaf", VG_(fnptr_to_fnentry)(&tg_set_leaf),
				       mkIRExprVec_1(IRExpr_Const(IRConst_U64(key))));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

IRSB *tg_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
		    const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
		    IRType gWordTy, IRType hWordTy)
{
	(void)closure, (void)layout, (void)vge, (void)archinfo_host;
	if (!tg.instrumenting)
		return in;
	tl_assert(gWordTy == Ity_I64 && hWordTy == Ity_I64);

	IRSB *out = deepCopyIRSBExceptStmts(in);
	Int i = 0;
	/* Statements before the first IMark (set-up the front end emits) stay first. */
	for (; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(out, in->stmts[i]);
	if (i == in->stmts_used)
		return in;

	Addr pc = (Addr)in->stmts[i]->Ist.IMark.addr;
	struct tg_func *fn = tg_func_at(pc);
	add_entry_check(out, fn ? fn->id : TG_FID_UNKNOWN, pc);

	UInt pending = 0;
	Long leaf = -1;   /* --inline: chain of the instructions being counted */
	UInt last_key = 0;
	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		if (st->tag == Ist_IMark && tg.opt.inline_frames) {
			last_key = tg_inline_key((Addr)st->Ist.IMark.addr);
			if ((Long)last_key != leaf) {
				if (pending)
					add_count(out, pending);
				pending = 0;
				add_set_leaf(out, last_key);
				leaf = last_key;
			}
		}
		if (st->tag == Ist_IMark)
			pending++;
		if (st->tag == Ist_Exit && pending) {
			add_count(out, pending);
			pending = 0;
		}
		addStmtToIRSB(out, st);
	}
	if (pending)
		add_count(out, pending);
	if (in->jumpkind == Ijk_Call) {
		if (tg.opt.inline_frames)
			addStmtToIRSB(out, IRStmt_Store(Iend_LE, addr_of(&tg.call_key),
							IRExpr_Const(IRConst_U64(last_key))));
		store_cur_fn(out, TG_CUR_CALL);
	}
	else if (in->jumpkind == Ijk_Ret)
		store_cur_fn(out, TG_CUR_RET);
	return out;
}
