/* Unit test of src/callstack used directly, as the Valgrind tool uses it: stack-pointer
 * matching, seeding, signal frames (handler SP), unwinding to an SP, clearing,
 * zeroing, cs_write_folded with host callbacks, allocation failure, the depth limit,
 * and what a stack costs (bytes asked of the host allocator).  Expected texts are
 * worked out by hand per case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/callstack.h"

static int failures;
static size_t allocs_left = (size_t)-1;
static size_t live_bytes; /* asked of t_alloc and not given back */

static void *t_alloc(void *ctx, size_t n)
{
	(void)ctx;
	if (allocs_left == 0)
		return NULL;
	allocs_left--;
	void *p = calloc(1, n);
	if (p)
		live_bytes += n;
	return p;
}
static void t_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	if (p)
		live_bytes -= n;
	free(p);
}
/* Functions are 0x100-aligned blocks: F at 0x100, G at 0x200, ... */
static int t_func_of(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	if (addr < 0x100 || addr >= 0x1000)
		return 0;
	*start = addr & ~0xffull;
	return 1;
}
static const struct cs_host host = { NULL, t_alloc, t_free, t_func_of };

static size_t t_name(void *arg, const struct cs_node *n, char *buf, size_t cap)
{
	(void)arg;
	if (n->kind == CS_NODE_SIGNAL)
		return (size_t)snprintf(buf, cap, "[signal %d]", (int)n->func);
	return (size_t)snprintf(buf, cap, "%c", (int)('F' + (n->func >> 8) - 1));
}
struct outbuf {
	char text[4096];
	size_t len;
};
static int t_write(void *arg, const char *s, size_t n)
{
	struct outbuf *o = arg;
	if (o->len + n >= sizeof(o->text))
		return -1;
	memcpy(o->text + o->len, s, n);
	o->len += n;
	o->text[o->len] = 0;
	return 0;
}

/* cs_write_folded visits depth first, children newest first; compare as sorted sets. */
static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
static void expect(const char *name, const struct callstack *cs, const char *want)
{
	struct outbuf o = { .len = 0 };
	struct cs_folded_writer w = { &o, t_name, t_write };
	if (cs_write_folded(cs, &w) != 0) {
		fprintf(stderr, "FAIL %s: write failed\n", name);
		failures++;
		return;
	}
	char *lines[64];
	int n = 0;
	for (char *p = strtok(o.text, "\n"); p && n < 64; p = strtok(NULL, "\n"))
		lines[n++] = p;
	qsort(lines, (size_t)n, sizeof(*lines), cmp_lines);
	char got[4096] = "";
	for (int i = 0; i < n; i++) {
		strcat(got, lines[i]);
		strcat(got, "\n");
	}
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "FAIL %s\n--- want\n%s--- got\n%s", name, want, got);
		failures++;
	}
}
static void expect_u64(const char *name, const char *what, uint64_t got, uint64_t want)
{
	if (got != want) {
		fprintf(stderr, "FAIL %s: %s %llu want %llu\n", name, what, (unsigned long long)got,
			(unsigned long long)want);
		failures++;
	}
}

/* x86 style: F calls G (sp 1000 -> pushes), G calls H (sp 960); H returns (sp back to
 * 960), G returns (1000).  Then a longjmp-like return far up (sp 2000) from a new call. */
static void test_sp_matching(void)
{
	struct cs_options o = { CS_MATCH_SP, 0, 0 };
	struct callstack *cs = cs_new(&host, &o);
	struct cs_seed_frame seed = { 0x110, 0, CS_NO_RETADDR, 5000 };
	cs_seed(cs, &seed, 1);
	*cs_counter(cs) += 1;                       /* F 1 */
	cs_call(cs, 0x120, 0x200, CS_NO_RETADDR, 1000);
	*cs_counter(cs) += 2;                       /* F;G 2 */
	cs_call(cs, 0x210, 0x300, CS_NO_RETADDR, 960);
	*cs_counter(cs) += 3;                       /* F;G;H 3 */
	cs_return(cs, 0, 960);
	*cs_counter(cs) += 4;                       /* F;G 4 more */
	cs_return(cs, 0, 1000);
	*cs_counter(cs) += 5;                       /* F 5 more */
	cs_call(cs, 0x130, 0x200, CS_NO_RETADDR, 1000);
	cs_call(cs, 0x230, 0x300, CS_NO_RETADDR, 900);
	cs_call(cs, 0x330, 0x400, CS_NO_RETADDR, 800);
	*cs_counter(cs) += 1;                       /* F;G;H;I 1 */
	cs_return(cs, 0, 1000);                     /* pops I, H, G: 2 beyond the top */
	*cs_counter(cs) += 1;                       /* F 1 more */
	cs_return(cs, 0, 10);                       /* nothing at or below sp 10: underflow */
	expect("sp matching", cs, "F 7\nF;G 6\nF;G;H 3\nF;G;H;I 1\n");
	const struct cs_stats *s = cs_get_stats(cs);
	expect_u64("sp matching", "returns", s->returns, 3);
	expect_u64("sp matching", "nonlocal_pops", s->nonlocal_pops, 2);
	expect_u64("sp matching", "underflows", s->underflows, 1);
	expect_u64("sp matching", "total", cs_total_weight(cs), 17);
	cs_free(cs);
}

/* Signals in SP mode: only cs_sigreturn pops the signal frame; cs_unwind_to_sp pops it
 * too when a handler longjmps out. */
static void test_signals_sp(void)
{
	struct cs_options o = { CS_MATCH_SP, 0, 0 };
	struct callstack *cs = cs_new(&host, &o);
	cs_tail_call(cs, 0, 0x100);                  /* enter F */
	cs_signal(cs, 10, 0x500, 700);
	*cs_counter(cs) += 2;                       /* F;[signal 10];J 2 */
	cs_return(cs, 0, 800);                      /* handler returns: pops J only */
	*cs_counter(cs) += 1;                       /* F;[signal 10] 1 */
	cs_sigreturn(cs);
	*cs_counter(cs) += 1;                       /* F 1 */
	cs_signal(cs, 11, 0x500, 700);
	cs_unwind_to_sp(cs, 750);                   /* siglongjmp: pops J and the signal */
	*cs_counter(cs) += 1;                       /* F 1 */
	expect("signals sp", cs, "F 2\nF;[signal 10] 1\nF;[signal 10];J 2\n");
	expect_u64("signals sp", "depth", cs_depth(cs), 1);
	cs_free(cs);
}

/* A handler's frame with its own SP (cs_signal_sp), x86 numbers: F (seeded) calls G at
 * SP 1000; G is interrupted at SP 900; the handler J starts with SP 700 (the slot of
 * its return address into the trampoline), so its frame SP is 708; J calls K at SP 660.
 * K's return (SP 660) pops K only; J's return (SP 708) pops J and stops at the signal
 * frame, which the trampoline runs under until cs_sigreturn. */
static void test_signal_handler_sp(void)
{
	struct cs_options o = { CS_MATCH_SP, 0, 0 };
	struct callstack *cs = cs_new(&host, &o);
	struct cs_seed_frame seed = { 0x110, 0, CS_NO_RETADDR, 5000 };
	cs_seed(cs, &seed, 1);
	cs_call(cs, 0x120, 0x200, CS_NO_RETADDR, 1000);
	*cs_counter(cs) += 1;                       /* F;G 1 */
	cs_signal_sp(cs, 10, 0x500, 900, 708);
	expect_u64("handler sp", "top sp", cs_top_sp(cs), 708);
	*cs_counter(cs) += 2;                       /* F;G;[signal 10];J 2 */
	cs_call(cs, 0x510, 0x600, CS_NO_RETADDR, 660);
	*cs_counter(cs) += 3;                       /* ...;J;K 3 */
	/* What a return would leave, asked without popping: F,G,[signal],J,K = 5. */
	expect_u64("handler sp", "after sp 600", cs_depth_after_sp_return(cs, 600), 5);
	expect_u64("handler sp", "after sp 660", cs_depth_after_sp_return(cs, 660), 4);
	expect_u64("handler sp", "after sp 708", cs_depth_after_sp_return(cs, 708), 3);
	expect_u64("handler sp", "after sp 5000", cs_depth_after_sp_return(cs, 5000), 3);
	expect_u64("handler sp", "depth unchanged", cs_depth(cs), 5);
	cs_return(cs, 0, 660);                      /* K returns: J stays (708 > 660) */
	expect_u64("handler sp", "depth after K", cs_depth(cs), 4);
	*cs_counter(cs) += 1;                       /* ...;J 1 more */
	cs_return(cs, 0, 708);                      /* J returns into the trampoline */
	expect_u64("handler sp", "depth after J", cs_depth(cs), 3);
	expect_u64("handler sp", "top is the signal frame", cs_current(cs)->kind, CS_NODE_SIGNAL);
	expect_u64("handler sp", "signal frame sp", cs_top_sp(cs), 900);
	*cs_counter(cs) += 2;                       /* F;G;[signal 10] 2 (trampoline) */
	cs_sigreturn(cs);
	expect_u64("handler sp", "top sp after sigreturn", cs_top_sp(cs), 1000);
	*cs_counter(cs) += 4;                       /* F;G 4 more */
	expect("handler sp", cs,
	       "F;G 5\nF;G;[signal 10] 2\nF;G;[signal 10];J 3\nF;G;[signal 10];J;K 3\n");
	const struct cs_stats *s = cs_get_stats(cs);
	expect_u64("handler sp", "returns", s->returns, 2);
	expect_u64("handler sp", "underflows", s->underflows, 0);
	expect_u64("handler sp", "nonlocal_pops", s->nonlocal_pops, 0);
	expect_u64("handler sp", "sigreturns", s->sigreturns, 1);
	cs_free(cs);

	/* cs_signal gives the handler the interrupted SP (900): its return at SP 708 finds
	 * no frame at or below 708 (the signal frame stops the search): an underflow. */
	cs = cs_new(&host, &o);
	cs_seed(cs, &seed, 1);
	cs_signal(cs, 10, 0x500, 900);
	cs_return(cs, 0, 708);
	expect_u64("handler sp (cs_signal)", "underflows", cs_get_stats(cs)->underflows, 1);
	expect_u64("handler sp (cs_signal)", "depth", cs_depth(cs), 3);
	cs_free(cs);

	/* Nested tail calls: the handler J tail-calls K (nested, K inherits J's 708); K's
	 * return at 708 ends both and leaves the signal frame on top. */
	struct cs_options on = { CS_MATCH_SP, CS_OPT_NEST_TAIL, 0 };
	cs = cs_new(&host, &on);
	cs_seed(cs, &seed, 1);
	cs_signal_sp(cs, 10, 0x500, 900, 708);
	cs_jump(cs, 0x510, 0x600);
	expect_u64("handler sp (nested)", "depth", cs_depth(cs), 4);
	expect_u64("handler sp (nested)", "K's sp", cs_top_sp(cs), 708);
	expect_u64("handler sp (nested)", "after sp 708", cs_depth_after_sp_return(cs, 708), 2);
	expect_u64("handler sp (nested)", "after sp 700", cs_depth_after_sp_return(cs, 700), 4);
	cs_return(cs, 0, 708);
	expect_u64("handler sp (nested)", "depth after return", cs_depth(cs), 2);
	expect_u64("handler sp (nested)", "signal frame on top", cs_current(cs)->kind, CS_NODE_SIGNAL);
	cs_free(cs);
}

/* cs_unwind_to_sp and the frame SP rule.  F (SP unknown: entered by a tail call) calls
 * setjmp at SP 1000 and then G at SP 1000 (frame SP 1000); G calls H at 960, H calls I
 * at 920.  I longjmps: SP is 1000 again, in F.  G, H, I have ended (G's frame SP is
 * exactly 1000: it is F's SP after G returns); F stays. */
static void test_unwind_to_sp(void)
{
	struct cs_options o = { CS_MATCH_SP, 0, 0 };
	struct callstack *cs = cs_new(&host, &o);
	cs_tail_call(cs, 0, 0x100);
	expect_u64("unwind", "unknown sp", cs_top_sp(cs), CS_SP_UNKNOWN);
	cs_call(cs, 0x120, 0x200, CS_NO_RETADDR, 1000);
	/* G tail-jumps elsewhere after popping its own frame: SP 992 (its return address
	 * slot).  Nothing at or below 992: G stays. */
	cs_unwind_to_sp(cs, 992);
	expect_u64("unwind", "depth after 992", cs_depth(cs), 2);
	cs_call(cs, 0x220, 0x300, CS_NO_RETADDR, 960);
	cs_call(cs, 0x320, 0x400, CS_NO_RETADDR, 920);
	*cs_counter(cs) += 1;                       /* F;G;H;I 1 */
	cs_unwind_to_sp(cs, 999);                   /* below G's 1000: pops I and H */
	expect_u64("unwind", "depth after 999", cs_depth(cs), 2);
	cs_call(cs, 0x220, 0x300, CS_NO_RETADDR, 960);
	cs_call(cs, 0x320, 0x400, CS_NO_RETADDR, 920);
	cs_unwind_to_sp(cs, 1000);                  /* the longjmp: pops I, H and G */
	expect_u64("unwind", "depth after 1000", cs_depth(cs), 1);
	*cs_counter(cs) += 2;                       /* F 2 */
	expect_u64("unwind", "nonlocal_pops", cs_get_stats(cs)->nonlocal_pops, 2 + 3);

	/* siglongjmp out of a handler: G at 1000, signal at 900, handler J (708) calls K
	 * (660); back to F at SP 1000 pops K, J, the signal frame and G. */
	cs_call(cs, 0x120, 0x200, CS_NO_RETADDR, 1000);
	cs_signal_sp(cs, 11, 0x500, 900, 708);
	cs_call(cs, 0x510, 0x600, CS_NO_RETADDR, 660);
	*cs_counter(cs) += 3;                       /* F;G;[signal 11];J;K 3 */
	cs_unwind_to_sp(cs, 1000);
	expect_u64("unwind", "depth after siglongjmp", cs_depth(cs), 1);
	expect_u64("unwind", "nonlocal_pops", cs_get_stats(cs)->nonlocal_pops, 5 + 4);

	/* Unknown-SP frames never go by SP, not even to the highest SP. */
	cs_call(cs, 0x130, 0x200, CS_NO_RETADDR, 1000);
	cs_unwind_to_sp(cs, CS_SP_UNKNOWN);
	expect_u64("unwind", "depth after max sp", cs_depth(cs), 1);
	expect_u64("unwind", "F still on top", cs_current(cs)->func, 0x100);
	expect("unwind", cs, "F 2\nF;G;H;I 1\nF;G;[signal 11];J;K 3\n");
	cs_free(cs);
}

/* cs_clear empties a stack holding unknown-SP, seeded, signal and nested frames; the
 * counts and statistics stay, the next charge goes to the root, and the next call
 * starts a path at the root. */
static void test_clear(void)
{
	struct cs_options o = { CS_MATCH_SP, CS_OPT_NEST_TAIL, 0 };
	struct callstack *cs = cs_new(&host, &o);
	cs_tail_call(cs, 0, 0x100);                 /* F, unknown SP */
	struct cs_seed_frame seed = { 0x210, 0, CS_NO_RETADDR, 0 }; /* G, unknown SP */
	cs_seed(cs, &seed, 1);
	cs_call(cs, 0x220, 0x300, CS_NO_RETADDR, 960);
	cs_signal_sp(cs, 12, 0x500, 900, 708);
	cs_jump(cs, 0x510, 0x600);                  /* J tail-calls K: nested */
	*cs_counter(cs) += 4;                       /* F;G;H;[signal 12];J;K 4 */
	expect_u64("clear", "depth before", cs_depth(cs), 6);
	struct cs_stats before = *cs_get_stats(cs);
	cs_clear(cs);
	expect_u64("clear", "depth", cs_depth(cs), 0);
	expect_u64("clear", "current is the root", cs_current(cs) == cs_root(cs), 1);
	expect_u64("clear", "top sp", cs_top_sp(cs), CS_SP_UNKNOWN);
	expect_u64("clear", "top retaddr", cs_top_retaddr(cs), CS_NO_RETADDR);
	expect_u64("clear", "stats kept", memcmp(&before, cs_get_stats(cs), sizeof(before)) == 0, 1);
	*cs_counter(cs) += 5;                       /* root 5 (not printed) */
	cs_call(cs, 0x120, 0x300, CS_NO_RETADDR, 1000);
	*cs_counter(cs) += 6;                       /* H 6 */
	expect("clear", cs, "F;G;H;[signal 12];J;K 4\nH 6\n");
	expect_u64("clear", "root weight", cs_root(cs)->weight, 5);
	expect_u64("clear", "total", cs_total_weight(cs), 15);
	cs_clear(cs);
	cs_clear(cs);                               /* clearing an empty stack: nothing */
	expect_u64("clear", "depth at end", cs_depth(cs), 0);
	cs_free(cs);
}

/* cs_zero_weights: every weight (root, functions, signal and leaf nodes) becomes 0;
 * nodes, call counts and the live stack stay, and counting resumes on the same path. */
static void test_zero_weights(void)
{
	struct cs_options o = { CS_MATCH_SP, 0, 0 };
	struct callstack *cs = cs_new(&host, &o);
	*cs_counter(cs) += 1;                       /* root 1 */
	struct cs_seed_frame seed = { 0x110, 0, CS_NO_RETADDR, 5000 };
	cs_seed(cs, &seed, 1);
	cs_call(cs, 0x120, 0x200, CS_NO_RETADDR, 1000);
	*cs_leaf_counter(cs, 0x234) += 2;          /* F;G;<leaf 0x234> 2 */
	cs_signal_sp(cs, 10, 0x500, 900, 708);
	*cs_counter(cs) += 3;                       /* F;G;[signal 10];J 3 */
	cs_return(cs, 0, 708);
	*cs_counter(cs) += 4;                       /* F;G;[signal 10] 4 */
	cs_sigreturn(cs);
	cs_call(cs, 0x240, 0x300, CS_NO_RETADDR, 960);
	cs_return(cs, 0, 960);
	cs_call(cs, 0x240, 0x300, CS_NO_RETADDR, 960);
	*cs_counter(cs) += 5;                       /* F;G;H 5 */
	expect_u64("zero", "total before", cs_total_weight(cs), 15);
	size_t nodes = cs_node_count(cs);
	cs_zero_weights(cs);
	expect_u64("zero", "total", cs_total_weight(cs), 0);
	expect_u64("zero", "root", cs_root(cs)->weight, 0);
	expect("zero", cs, "");
	expect_u64("zero", "nodes kept", cs_node_count(cs), nodes);
	expect_u64("zero", "depth kept", cs_depth(cs), 3);
	expect_u64("zero", "H's calls kept", cs_current(cs)->calls, 2);
	*cs_counter(cs) += 7;                       /* F;G;H 7 */
	cs_return(cs, 0, 960);
	*cs_counter(cs) += 1;                       /* F;G 1 */
	expect("zero", cs, "F;G 1\nF;G;H 7\n");
	cs_free(cs);

	cs = cs_new(&host, &o);                     /* an empty trie: nothing to do */
	cs_zero_weights(cs);
	expect_u64("zero empty", "total", cs_total_weight(cs), 0);
	cs_free(cs);
}

/* Nested tail calls with return-address matching: F tail-calls G which tail-calls H:
 * one return pops the whole chain. */
static void test_nested_tail_retaddr(void)
{
	struct cs_options o = { CS_MATCH_RETADDR, CS_OPT_NEST_TAIL, 0 };
	struct callstack *cs = cs_new(&host, &o);
	cs_tail_call(cs, 0, 0x100);
	cs_call(cs, 0x104, 0x200, 0x108, 0);
	cs_jump(cs, 0x210, 0x300);
	cs_jump(cs, 0x310, 0x320);                   /* same function: nothing */
	cs_jump(cs, 0x320, 0x400);
	*cs_counter(cs) += 3;                       /* F;G;H;I 3 */
	/* the nodes a nested tail call entered say so (grind keeps the lazy resolver's
	 * target by it); G, called, does not */
	const struct cs_node *i_node = cs_current(cs);
	expect_u64("nested tail", "I tail-entered", i_node->tail_entered, 1);
	expect_u64("nested tail", "H tail-entered", i_node->parent->tail_entered, 1);
	expect_u64("nested tail", "G called", i_node->parent->parent->tail_entered, 0);
	cs_return(cs, 0x108, 0);
	*cs_counter(cs) += 1;                       /* F 1 */
	expect("nested tail", cs, "F 1\nF;G;H;I 3\n");
	expect_u64("nested tail", "depth", cs_depth(cs), 1);
	expect_u64("nested tail", "tail calls", cs_get_stats(cs)->tail_calls, 3);
	expect_u64("nested tail", "jumps", cs_get_stats(cs)->jumps, 1);
	cs_free(cs);
}

/* Allocation failures and the depth limit never crash; weight goes to the nearest node. */
static void test_limits(void)
{
	struct cs_options o = { CS_MATCH_RETADDR, 0, 3 };
	struct callstack *cs = cs_new(&host, &o);
	for (int i = 0; i < 10; i++)
		cs_call(cs, 0x100 + i, 0x200, 0x104 + i, 0);
	*cs_counter(cs) += 1;
	expect_u64("limits", "depth", cs_depth(cs), 3);
	expect_u64("limits", "depth drops", cs_get_stats(cs)->depth_drops, 7);
	cs_free(cs);

	allocs_left = 5; /* object, trie, slots, frames, one slab: then nothing */
	cs = cs_new(&host, NULL);
	if (cs) {
		for (int i = 0; i < 2000; i++)
			cs_call(cs, (uint64_t)i * 4, 0x100 + (uint64_t)(i % 7) * 0x100, (uint64_t)i * 4 + 4, 0);
		*cs_counter(cs) += 1;
		for (int i = 0; i < 2000; i++)
			cs_return(cs, (uint64_t)i * 4 + 4, 0);
		if (cs_get_stats(cs)->alloc_failures == 0) {
			fprintf(stderr, "FAIL limits: no allocation failure seen\n");
			failures++;
		}
		struct outbuf out = { .len = 0 };
		struct cs_folded_writer w = { &out, t_name, t_write };
		if (cs_write_folded(cs, &w) != -1) { /* needs a buffer: must fail cleanly */
			fprintf(stderr, "FAIL limits: write without memory did not fail\n");
			failures++;
		}
		allocs_left = (size_t)-1;
		cs_free(cs);
	}
	allocs_left = (size_t)-1;
}

/* A stack costs what it holds: one that saw a single function costs about a KiB (a QEMU
 * log naming 4096 cpus makes 4096 stacks; each cost 43 KiB when the trie started with
 * 1024 slots and a 512-node slab), and one that grows pays per node, without a large
 * step anywhere.  Counted in bytes asked of the host: no timing. */
static void test_cost(void)
{
	size_t before = live_bytes;
	struct cs_options o = { CS_MATCH_SP, 0, 0 };
	struct callstack *cs = cs_new(&host, &o);
	cs_call(cs, 0, 0x100, CS_NO_RETADDR, 0x7000);
	*cs_counter(cs) += 1;
	if (live_bytes - before > 1536) {
		fprintf(stderr, "FAIL cost: a stack with one frame takes %zu bytes\n",
			live_bytes - before);
		failures++;
	}
	/* 20000 paths of depth 2 (distinct call sites), each entered then left */
	for (int i = 0; i < 20000; i++) {
		cs_call(cs, 0x100 + (uint64_t)i % 0x100, 0x200 + (uint64_t)(i / 0x100 % 14) * 0x100,
			CS_NO_RETADDR, 0x6ff0);
		*cs_counter(cs) += 1;
		cs_return(cs, 0, 0x6ff0);
	}
	size_t nodes = cs_node_count(cs), bytes = live_bytes - before;
	if (nodes != 1 + 0x100 * 14 || bytes > nodes * 160 + 40000) {
		fprintf(stderr, "FAIL cost: %zu nodes take %zu bytes\n", nodes, bytes);
		failures++;
	}
	cs_free(cs);
	if (live_bytes != before) {
		fprintf(stderr, "FAIL cost: %zu bytes not given back\n", live_bytes - before);
		failures++;
	}
}

int main(void)
{
	test_sp_matching();
	test_signals_sp();
	test_signal_handler_sp();
	test_unwind_to_sp();
	test_clear();
	test_zero_weights();
	test_nested_tail_retaddr();
	test_limits();
	test_cost();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures != 0;
}
