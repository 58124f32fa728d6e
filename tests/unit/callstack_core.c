/* Unit test of src/callstack used directly, as the Valgrind tool uses it: stack-pointer
 * matching, seeding, signal frames, cs_write_folded with host callbacks, allocation
 * failure and the depth limit.  Expected texts are worked out by hand per case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/callstack.h"

static int failures;
static size_t allocs_left = (size_t)-1;

static void *t_alloc(void *ctx, size_t n)
{
	(void)ctx;
	if (allocs_left == 0)
		return NULL;
	allocs_left--;
	return calloc(1, n);
}
static void t_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	(void)n;
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

	allocs_left = 5; /* object, trie, slots, one slab, frames: then nothing */
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

int main(void)
{
	test_sp_matching();
	test_signals_sp();
	test_nested_tail_retaddr();
	test_limits();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures != 0;
}
