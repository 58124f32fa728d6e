/* callstack.h - the shadow call stack and call trie of instruction-level sources.
 *
 * Freestanding C: no libc, no stdio, no malloc.  The host (Valgrind tool, QEMU plugin,
 * offline trace reader, unit tests) passes an allocator and a function lookup in
 * struct cs_host, so the same code links everywhere.  Only <stdint.h>/<stddef.h> types.
 *
 * Model
 *   - The call TRIE holds every call path seen.  A node is (parent, kind, function id,
 *     call site): the function entered, and the pc of the call instruction in the
 *     parent that entered it (0 when unknown or when the host keys without call sites,
 *     see CS_OPT_NO_CALLSITE).  Node weights are SELF weights (instructions executed
 *     while that path was the current one).  The root node (cs_root) stands for "no
 *     frame" and is never printed.
 *   - The frame STACK is the live path: each frame points at its trie node and keeps
 *     what returns are matched by (return address, stack pointer at the call).
 *   - A frame's SP (CS_MATCH_SP hosts) is the stack pointer its caller has AFTER the
 *     frame returns: on x86, SP just before the call pushed the return address, i.e.
 *     SP at the callee's first instruction + 8.  So "SP <= current SP" means "this frame
 *     has returned or was abandoned": a return, a longjmp or an exception landing at SP
 *     has ended every frame whose SP is at or below it, and the frame that called the
 *     code now running at SP keeps a strictly higher SP.  One rule for cs_return,
 *     cs_unwind_to_sp and signal handlers (cs_signal_sp).  CS_SP_UNKNOWN marks a frame
 *     whose SP is not known: no SP rule ever pops it (cs_clear does).
 *   - WEIGHT: the host charges the current node through the pointer cs_counter() (an
 *     inline field read): O(1) per instruction or per block.  The pointer changes only
 *     when a cs_* transfer call is made, so a host may cache it between transfers.
 *     Rule for instruction sources: charge an instruction to the stack in force BEFORE
 *     its own transfer (a call instruction belongs to the caller, a return instruction
 *     to the callee).
 *
 * Transfers
 *   cs_call      push a frame for TARGET (call site PC, expected return address, SP).
 *   cs_return    pop.  Two matching modes (struct cs_options.match):
 *                CS_MATCH_RETADDR (RISC-V): pop to the innermost frame whose expected
 *                  return address equals TARGET, even if deeper than the top (non-local
 *                  return, counted in stats.nonlocal_pops).  If none matches, pop to the
 *                  innermost frame whose FUNCTION contains TARGET (longjmp back into a
 *                  live function).  If that fails too, inside a signal frame the handler
 *                  has returned to the signal trampoline: pop to the signal frame.
 *                  Otherwise it is an underflow (stats.underflows): the stack is emptied
 *                  and TARGET's function becomes the single (uncharged) frame.
 *                CS_MATCH_SP (x86 under Valgrind, stack grows down): pop every frame
 *                  whose SP is <= SP after the return (the frame SP rule: the return
 *                  address has been popped, so the returning frame's SP == SP).  A
 *                  return that pops nothing is an underflow.  Signal frames are popped
 *                  only by cs_sigreturn, cs_unwind_to_sp or cs_clear.
 *   cs_jump      a non-linking jump FROM -> TO.  If both lie in known functions and the
 *                functions differ it is a tail call (cs_tail_call); otherwise (loop
 *                back-edges, if/else, jump tables, self tail recursion, unknown code) the
 *                stack is untouched.
 *   cs_tail_call replace the top frame by TARGET (the replaced frame's return address and
 *                SP are kept, the new node is a sibling of the old one).  With
 *                CS_OPT_NEST_TAIL the target is pushed as a child instead and marked, so
 *                the return that pops it pops the tail-caller too; a tail call to a
 *                function already in the current chain of nested tail frames pops back
 *                to it (mutual tail recursion never nests).
 *   cs_seed      push frames found by an unwind at attach time, without charging.
 *                Frames with an unknown SP (seeded with sp 0, or pushed by a tail call
 *                or underflow on an empty stack) are never popped by SP matching.
 *   cs_signal    push a "[signal N]" pseudo-frame, then the handler's frame above it.
 *   cs_signal_sp the same with the handler's own SP, so SP hosts pop the handler's
 *                frame at its return like any callee's.
 *   cs_sigreturn pop down to and including the innermost signal frame.
 *   cs_unwind_to_sp  SP rose to SP (longjmp, exception): pop every frame at or below it.
 *   cs_clear     pop every frame, whatever its SP (tracking stops, a stack is rebuilt
 *                from an unwind): counts stay.
 *   cs_zero_weights  zero every node's weight (zero-stats requests, a forked child).
 *
 * Threads: one struct callstack per thread; nothing is shared between objects except
 * what the host's callbacks share.  No object is thread-safe by itself.
 *
 * Out of memory: if host->alloc returns NULL the object stops growing: transfers that
 * would need memory charge the nearest existing node and stats.alloc_failures counts
 * them.  Nothing crashes. */
#ifndef TEPHRA_CALLSTACK_CALLSTACK_H
#define TEPHRA_CALLSTACK_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>

/* What the host provides.  All callbacks get CTX as first argument. */
struct cs_host {
	void *ctx;
	/* Returns SIZE bytes of ZEROED memory aligned for any type, or NULL. */
	void *(*alloc)(void *ctx, size_t size);
	/* Releases memory from alloc (SIZE is what was asked for). */
	void (*free)(void *ctx, void *ptr, size_t size);
	/* Function lookup: stores the start address of the function containing ADDR in
	 * *START and returns 1, or returns 0 when ADDR lies in no known function.  The
	 * start address is the function id in the trie.  May be NULL (then every address
	 * is unknown: calls key nodes by the target address itself, jumps never touch the
	 * stack). */
	int (*func_of)(void *ctx, uint64_t addr, uint64_t *start);
};

enum cs_match {
	CS_MATCH_RETADDR = 0, /* RISC-V: returns matched by return address */
	CS_MATCH_SP = 1,      /* x86 (Valgrind): returns matched by stack pointer */
};

enum cs_option_flags {
	CS_OPT_NEST_TAIL = 1 << 0,   /* tail calls nest under the tail-caller */
	CS_OPT_NO_CALLSITE = 1 << 1, /* trie nodes ignore the call site (fewer nodes) */
};

struct cs_options {
	enum cs_match match;
	unsigned flags;        /* enum cs_option_flags */
	unsigned max_depth;    /* frames beyond this are not pushed (0 = 100000) */
};

enum cs_node_kind {
	CS_NODE_ROOT = 0,   /* the trie root: no function */
	CS_NODE_FUNC = 1,   /* a function: func = its id (start address, or target address) */
	CS_NODE_SIGNAL = 2, /* "[signal N]": func = signal number (0 = unknown) */
	CS_NODE_LEAF = 3,   /* a pc inside the parent's function (raw/leaf-pc mode, see
			     * cs_leaf_counter): func = that pc */
};

struct cs_node {
	uint64_t weight;          /* self weight: keep first, hosts add to it directly */
	uint64_t calls;           /* times this path was entered (calls, tail calls) */
	uint64_t func;            /* see enum cs_node_kind */
	uint64_t callsite;        /* pc of the call in the parent's function, 0 if unknown */
	struct cs_node *parent;   /* NULL only for the root */
	struct cs_node *first_child;
	struct cs_node *next_sibling;
	struct cs_node *last_entered; /* the child last looked up: calls repeat, so it is
				       * usually the next one too (owner thread only) */
	uint32_t depth;           /* root = 0 */
	uint8_t kind;             /* enum cs_node_kind */
	uint8_t tail_entered;     /* CS_OPT_NEST_TAIL: entered by a tail call of its parent
				   * (a host hiding the parent keeps it: the lazy resolver's
				   * target) */
};

struct cs_stats {
	uint64_t calls;          /* cs_call (and the push half of pop-then-push) */
	uint64_t returns;        /* cs_return that popped at least one frame */
	uint64_t tail_calls;     /* cs_tail_call, including those cs_jump decided */
	uint64_t jumps;          /* cs_jump calls that left the stack alone */
	uint64_t underflows;     /* returns with no frame to return to */
	uint64_t nonlocal_pops;  /* frames popped beyond the top by non-local returns */
	uint64_t signals;        /* cs_signal */
	uint64_t sigreturns;     /* cs_sigreturn that found a signal frame */
	uint64_t depth_drops;    /* pushes refused by max_depth */
	uint64_t alloc_failures; /* allocations that failed */
	uint64_t max_depth_seen; /* deepest stack */
};

/* The object.  Fields are read-only for hosts; use the functions. */
struct callstack {
	struct cs_node *top;     /* current node: the host charges top->weight */
	/* everything else is private to callstack.c */
	struct cs_host host;
	struct cs_options opts;
	struct cs_node root;
	struct cs_frame *frames;
	uint32_t nframes, frames_cap;
	struct cs_trie *trie;
	struct cs_stats stats;
};

/* Sentinel "no return address" for frames that cannot be returned to by address
 * (seeded frames without one, signal handlers). */
#define CS_NO_RETADDR UINT64_MAX
/* SP of a frame whose stack pointer is unknown (see "A frame's SP" above). */
#define CS_SP_UNKNOWN UINT64_MAX

/* Creates an empty stack (current node = root).  HOST is copied; OPTS may be NULL.
 * Returns NULL if the allocation fails. */
struct callstack *cs_new(const struct cs_host *host, const struct cs_options *opts);
void cs_free(struct callstack *cs);

/* The counter of the current path.  Valid until the next transfer call. */
static inline uint64_t *cs_counter(struct callstack *cs) { return &cs->top->weight; }
static inline struct cs_node *cs_current(struct callstack *cs) { return cs->top; }
static inline const struct cs_node *cs_root(const struct callstack *cs) { return &cs->root; }
static inline uint32_t cs_depth(const struct callstack *cs) { return cs->nframes; }
static inline const struct cs_stats *cs_get_stats(const struct callstack *cs) { return &cs->stats; }

/* Call at CALLSITE (pc of the call instruction) to TARGET.  RETADDR is where the callee
 * is expected to return (RISC-V: callsite + instruction length; CS_NO_RETADDR if the
 * host matches by SP).  SP is the stack pointer just before the call pushed anything
 * (x86: the value it will have again after the matching return). */
void cs_call(struct callstack *cs, uint64_t callsite, uint64_t target, uint64_t retaddr,
	     uint64_t sp);

/* cs_call with TARGET's function id already known (FUNC: host->func_of's start when it
 * covers TARGET, else TARGET itself): for hosts that memoize the lookup. */
void cs_call_func(struct callstack *cs, uint64_t callsite, uint64_t func, uint64_t retaddr,
		  uint64_t sp);

/* The return address the top frame expects (CS_NO_RETADDR if none or no frame). */
uint64_t cs_top_retaddr(const struct callstack *cs);
/* The SP recorded for the top frame (CS_SP_UNKNOWN if unknown or no frame): a return
 * leaving SP at or above it pops that frame. */
uint64_t cs_top_sp(const struct callstack *cs);

/* Return to TARGET with stack pointer SP after the return (see matching modes above). */
void cs_return(struct callstack *cs, uint64_t target, uint64_t sp);
/* CS_MATCH_SP rule without popping: the depth cs_return(cs, any, SP) would leave in
 * CS_MATCH_SP mode, cs_depth() if it would pop nothing (an underflow).  Hosts use it
 * to see which frames a return ends before deciding (grind: a return that ends a
 * signal handler's frame, with the tail calls nested on it, goes to the trampoline). */
uint32_t cs_depth_after_sp_return(const struct callstack *cs, uint64_t sp);

/* Non-linking jump FROM -> TO: a tail call only between different known functions.
 * Returns 1 if it was taken as a tail call, 0 if the stack was left alone. */
int cs_jump(struct callstack *cs, uint64_t from, uint64_t to);

/* cs_tail_call to the function id FUNC (as for cs_call_func). */
void cs_tail_call_func(struct callstack *cs, uint64_t func);

/* cs_jump with both function ids already known (*_KNOWN: whether a symbol covered the
 * address; *_FUNC: its function id): a jump inside one function, the common case, is a
 * statistic. */
static inline int cs_jump_funcs(struct callstack *cs, int from_known, uint64_t from_func,
				int to_known, uint64_t to_func)
{
	if (!from_known || !to_known || from_func == to_func) {
		cs->stats.jumps++;
		return 0;
	}
	cs_tail_call_func(cs, to_func);
	return 1;
}

/* Replace the top frame by TARGET (FROM: pc of the jump, recorded as nothing; kept for
 * symmetry and hosts' logs).  With an empty stack TARGET becomes the single frame. */
void cs_tail_call(struct callstack *cs, uint64_t from, uint64_t target);

/* Frames found by an unwind, ROOT FIRST, pushed without charging or counting calls. */
struct cs_seed_frame {
	uint64_t func_addr; /* any address inside the function (its pc) */
	uint64_t callsite;  /* pc of the call that entered it, 0 if unknown */
	uint64_t retaddr;   /* CS_NO_RETADDR if unknown */
	uint64_t sp;        /* SP at its call, 0 if unknown */
};
void cs_seed(struct callstack *cs, const struct cs_seed_frame *frames, size_t n);

/* Signal SIGNO (0 if unknown) delivered: pushes "[signal SIGNO]" with INTERRUPTED_SP
 * (the interrupted code's SP: it has that SP again after rt_sigreturn, so the signal
 * frame follows the frame SP rule) and then HANDLER's frame (no return address: see
 * CS_MATCH_RETADDR above) with HANDLER_SP, the SP the handler's return leaves (x86:
 * SP at the handler's first instruction + 8, as for cs_call).  In CS_MATCH_SP mode
 * the handler's return then pops its frame (and only it: the signal frame stays until
 * cs_sigreturn), leaving "[signal SIGNO]" on top while the trampoline runs. */
void cs_signal_sp(struct callstack *cs, int signo, uint64_t handler, uint64_t interrupted_sp,
		  uint64_t handler_sp);
/* cs_signal_sp with both SPs = SP: for hosts that do not match by SP (an SP host's
 * handler return would not pop such a handler frame and would count an underflow). */
void cs_signal(struct callstack *cs, int signo, uint64_t handler, uint64_t sp);
/* rt_sigreturn: pops through the innermost signal frame (no-op without one). */
void cs_sigreturn(struct callstack *cs);

/* CS_MATCH_SP hosts: SP moved up to SP without returns (longjmp, siglongjmp, exception
 * landing pad): pops every frame, signal frames included, whose SP is <= SP (the
 * frame SP rule: a frame whose caller is back at SP has ended), from the top down to
 * the first frame with a higher or unknown SP.  Counts the popped frames in
 * stats.nonlocal_pops.  cs_unwind_to_sp(cs, CS_SP_UNKNOWN) stops at unknown frames
 * too: use cs_clear to empty the stack. */
void cs_unwind_to_sp(struct callstack *cs, uint64_t sp);

/* Pops every frame (unknown SP and signal frames included): the current node is the
 * root again.  Counts and statistics are kept (it is not a transfer of the program:
 * hosts use it when tracking stops, or to rebuild a stack from an unwind). */
void cs_clear(struct callstack *cs);

/* Sets the weight of every node, the root included, to 0 (callgrind's ZERO_STATS, a
 * forked child that counts only its own instructions).  Nodes, their call counts,
 * the live frames and statistics stay.  No allocation. */
void cs_zero_weights(struct callstack *cs);

/* Raw/leaf-pc mode: the counter of the pseudo-node (current node, PC), created on first
 * use.  Hosts that want per-pc leaves charge this instead of cs_counter(). */
uint64_t *cs_leaf_counter(struct callstack *cs, uint64_t pc);

/* Visits every node with non-zero self weight, in depth-first order.  PATH[0..N) are
 * the nodes from just below the root down to the visited node (PATH[N-1]).  Return
 * non-zero from FN to stop; cs_walk then returns that value.  Uses host->alloc for
 * the path buffer (returns -1 if that fails). */
typedef int (*cs_visit_fn)(void *arg, const struct cs_node *const *path, size_t n);
int cs_walk(const struct callstack *cs, cs_visit_fn fn, void *arg);

/* Sum of self weights of all nodes. */
uint64_t cs_total_weight(const struct callstack *cs);
/* Number of trie nodes (memory grows with this, not with instructions). */
size_t cs_node_count(const struct callstack *cs);

/* Folded text without libc: one line "name;name;...;name WEIGHT\n" per node with
 * weight, names from NAME (writes at most CAP bytes into BUF, returns the length
 * written; the core truncates if it returns more), text handed to WRITE in pieces.
 * Equal name paths are NOT merged (hosts that can, merge; flamegraph consumers sum).
 * Returns 0, or the first non-zero WRITE result, or -1 on allocation failure. */
struct cs_folded_writer {
	void *arg;
	size_t (*name)(void *arg, const struct cs_node *node, char *buf, size_t cap);
	int (*write)(void *arg, const char *text, size_t len);
};
int cs_write_folded(const struct callstack *cs, const struct cs_folded_writer *w);

#endif
