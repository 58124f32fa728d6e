/* tg_unwind.c - a thread's native call stack, to seed its empty shadow stack (at the
 * thread's first block, at a start request, after an underflow).
 *
 * Valgrind's unwinder (VG_(get_StackTrace)) follows CFI; where a frame has none it
 * guesses from the frame pointer, else takes the word at SP.  Code in no object (JIT
 * code, a thunk written at run time) has no CFI, and when it keeps no frame pointer
 * the guess reads whatever an outer function left in %rbp: the unwind skips the
 * callers in between (main's frame lost, so the stack seemed to start below main) or
 * stops there (a phantom root).  For a frame in such code we find the caller
 * ourselves: the innermost word above the frame's SP that returns into known code
 * just after a call that can enter code in no object (an indirect call, or a direct
 * call to code in no object); the unwind goes on from there with the registers the
 * caller has then.
 *
 * A stack is unwound whole, up to TG_SEED_MAX frames (half the call stack's limit): it used
 * to be cut at 20,000 frames, and the outermost frame kept was taken for a root; every
 * return past it was an underflow, repaired by another cut unwind (thousands of
 * phantom roots).  A stack deeper than the limit keeps its innermost frames below one
 * "[truncated]" frame, and stderr says so once. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_vki.h"

#include "libvex_guest_offsets.h"

#include "tg_funcs.h"
#include "tg_tool.h"

/* How far above a frame in code in no object its return address is looked for. */
#define TG_SCAN_WORDS 4096

/* The unwind, innermost frame first; grown as deeper stacks are met, kept. */
static struct {
	Addr *ips, *sps, *fps;
	UInt cap;
} ub;

static void reserve(UInt cap)
{
	if (cap <= ub.cap)
		return;
	ub.ips = VG_(realloc)("tg.unwind.ips", ub.ips, cap * sizeof(Addr));
	ub.sps = VG_(realloc)("tg.unwind.sps", ub.sps, cap * sizeof(Addr));
	ub.fps = VG_(realloc)("tg.unwind.fps", ub.fps, cap * sizeof(Addr));
	ub.cap = cap;
}

/* Bytes taken by a ModRM operand in 64-bit mode (ModRM, SIB, displacement); M[0] is
 * the ModRM byte, M[1] the SIB byte, read only when HAVE_SIB. */
static UInt modrm_len(const UChar *m, Bool have_sib)
{
	UInt mod = m[0] >> 6, rm = m[0] & 7;
	if (mod == 3)
		return 1;
	if (mod == 0 && rm == 5)
		return 5; /* RIP-relative disp32 */
	UInt len = 1;
	if (rm == 4) {
		if (!have_sib)
			return 0;
		len++;
		if (mod == 0 && (m[1] & 7) == 5)
			return len + 4;
	}
	return len + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

/* Whether the instruction ending just before RET is a call that can enter code in no
 * object: an indirect call (ff /2, 2 to 7 bytes), or a direct call (e8 rel32) whose
 * target is in no object. */
static Bool after_call_into_unknown(Addr ret)
{
	UChar b[8];
	if (ret < 4096 || !VG_(am_is_valid_for_client)(ret - 8, 8, VKI_PROT_READ | VKI_PROT_EXEC))
		return False;
	VG_(memcpy)(b, (const void *)(ret - 8), 8);
	/* Both readings are tried: the bytes before RET may fit either. */
	for (UInt len = 2; len <= 7; len++) {
		const UChar *op = b + 8 - len;
		if (op[0] == 0xff && ((op[1] >> 3) & 7) == 2 && modrm_len(op + 1, len >= 3) + 1 == len)
			return True;
	}
	if (b[3] == 0xe8) {
		Int rel;
		VG_(memcpy)(&rel, b + 4, 4);
		return tg_func_at(ret + (Long)rel) == NULL;
	}
	return False;
}

/* The caller of a frame in code in no object whose SP is SP: the innermost stack word
 * above SP that returns into known code after such a call.  *SLOT: its address. */
static Bool find_caller(ThreadId tid, Addr sp, Addr *slot, Addr *ret)
{
	Addr highest = VG_(thread_get_stack_max)(tid);
	for (UInt k = 0; k < TG_SCAN_WORDS; k++) {
		Addr a = sp + k * sizeof(Addr);
		if (a + sizeof(Addr) - 1 > highest ||
		    !VG_(am_is_valid_for_client)(a, sizeof(Addr), VKI_PROT_READ))
			return False;
		Addr w = *(const Addr *)a;
		if (after_call_into_unknown(w) && tg_func_at(w - 1)) {
			*slot = a;
			*ret = w;
			return True;
		}
	}
	return False;
}

/* VG_(get_StackTrace) from registers IP, SP, FP instead of the thread's own: they are
 * set in the thread's guest state for the unwind and put back. */
static UInt unwind_from(ThreadId tid, Addr ip, Addr sp, Addr fp, Addr *ips, Addr *sps,
			Addr *fps, UInt max)
{
	static const PtrdiffT off[3] = { OFFSET_amd64_RIP, OFFSET_amd64_RSP, OFFSET_amd64_RBP };
	const Addr val[3] = { ip, sp, fp };
	Addr saved[3];
	for (UInt r = 0; r < 3; r++) {
		VG_(get_shadow_regs_area)(tid, (UChar *)&saved[r], 0, off[r], sizeof(Addr));
		VG_(set_shadow_regs_area)(tid, 0, off[r], sizeof(Addr), (const UChar *)&val[r]);
	}
	UInt n = VG_(get_StackTrace)(tid, ips, max, sps, fps, 0);
	for (UInt r = 0; r < 3; r++)
		VG_(set_shadow_regs_area)(tid, 0, off[r], sizeof(Addr), (const UChar *)&saved[r]);
	return n;
}

/* Unwinds TID's stack into ub, at most CAP frames, finding the callers of frames in
 * code in no object (above).  Returns the number of frames. */
static UInt unwind(ThreadId tid, UInt cap)
{
	UInt n = VG_(get_StackTrace)(tid, ub.ips, cap, ub.sps, ub.fps, 0);
	for (UInt i = 0; i < n && i + 1 < cap; i++) {
		if (tg_func_at(ub.ips[i]))
			continue;
		Addr slot, ret;
		if (!find_caller(tid, ub.sps[i], &slot, &ret)) {
			n = i + 1; /* nothing beyond looks like a caller: a guess at best */
			break;
		}
		if (i + 1 < n && ub.ips[i + 1] == ret - 1 && ub.sps[i + 1] == slot + sizeof(Addr))
			continue; /* Valgrind's guess found the same caller */
		/* The caller as Valgrind reports callers: the call's last byte (its CFI row)
		 * and its SP after the call returns; %rbp as the code in no object kept it. */
		n = i + 1 + unwind_from(tid, ret - 1, slot + sizeof(Addr), ub.fps[i], ub.ips + i + 1,
					ub.sps + i + 1, ub.fps + i + 1, cap - i - 1);
	}
	return n;
}

static void warn_truncated(void)
{
	static Bool warned;
	if (warned)
		return;
	warned = True;
	VG_(printf)("tephra grind: warning: a stack rebuilt by unwinding was deeper than %u "
		    "frames: its outermost frames are one [truncated] frame\n", TG_SEED_MAX);
}

/* Pushes the thread's current native stack onto its empty shadow stack, root first.
 * Each frame gets the SP its caller will have after it returns, so later returns pop
 * the right frames; the outermost has no caller: its SP is unknown (0), so no SP rule
 * pops it (tg_empty_stack does). */
void tg_seed_from_unwind(ThreadId tid)
{
	struct tg_thread *t = tg_thread_get(tid);
	if (!t->cs)
		return;
	UInt cap = ub.cap ? ub.cap : 256, n;
	Bool complete = False;
	for (;;) {
		reserve(cap);
		n = unwind(tid, cap);
		/* A stack starts at _start (a thread's at clone): what an unwind finds
		 * beyond it is whatever lies above on the stack. */
		for (UInt i = 0; i < n; i++) {
			struct tg_func *f = tg_func_at(ub.ips[i]);
			if (f && (f->flags & TG_FN_STACK_ROOT)) {
				n = i + 1;
				complete = True;
				break;
			}
		}
		if (complete || n < cap || cap == TG_SEED_MAX)
			break;
		cap = cap < TG_SEED_MAX / 2 ? cap * 2 : TG_SEED_MAX;
	}
	Bool truncated = !complete && n == TG_SEED_MAX;
	/* An unwind that ends on a null or garbage return address gives no frame. */
	while (!truncated && n > 1 && !tg_func_at(ub.ips[n - 1]) && ub.ips[n - 1] < 4096)
		n--;
	/* The first block of the process is its entry point (the dynamic linker's, often
	 * without a symbol): nothing is below it, and it is below main like _start. */
	if (tg.stats.seeds == 0 && tg.opt.start_on && n > 0) {
		n = 1;
		truncated = False;
		/* Not when the entry is a stripped program's code: its one pseudo function
		 * "[program]" stands for all the program's code, main included. */
		struct tg_func *entry = tg_func_at(ub.ips[0]);
		const HChar *base = entry && entry->obj ? VG_(strrchr)(entry->obj, '/') : NULL;
		base = base ? base + 1 : entry ? entry->obj : NULL;
		if (entry && (!(entry->flags & TG_FN_NOSYM) || (base && VG_(strncmp)(base, "ld", 2) == 0)))
			entry->flags |= TG_FN_BELOW_MAIN;
	}
	struct cs_seed_frame *fr = VG_(calloc)("tg.seed.frames", n ? n : 1, sizeof(*fr));
	UInt k = 0;
	if (truncated) {
		/* The outermost frame found stands for itself and all beyond it. */
		tg_func_pseudo(TG_FID_TRUNCATED, "[truncated]");
		fr[k].func_addr = TG_FID_TRUNCATED;
		fr[k].retaddr = CS_NO_RETADDR;
		k++;
		warn_truncated();
	}
	for (; k < n; k++) {
		UInt i = n - 1 - k; /* root first */
		fr[k].func_addr = ub.ips[i];
		fr[k].callsite = 0;
		fr[k].retaddr = CS_NO_RETADDR;
		fr[k].sp = (i == n - 1) ? 0 : ub.sps[i + 1];
	}
	cs_seed(t->cs, fr, n);
	tg.stats.frames_seeded += n;
	tg.stats.seeds++;
	VG_(free)(fr);
}
