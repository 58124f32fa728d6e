/* trace_fold.c - call tries to folded stacks (see trace_fold.h). */
#include "trace/trace_fold.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static void *libc_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size ? size : 1);
}

static void libc_free(void *ctx, void *p, size_t size)
{
	(void)ctx;
	(void)size;
	free(p);
}

struct cs_host trace_libc_host(const struct guest_syms *syms)
{
	struct cs_host h = { (void *)syms, libc_alloc, libc_free,
			     syms ? guest_syms_func_of : NULL };
	return h;
}

static const char *syms_name(void *ctx, uint64_t func)
{
	const struct guest_func *f = ctx ? guest_syms_by_start(ctx, func) : NULL;
	return f ? f->name : NULL;
}

struct trace_namer trace_namer_syms(const struct guest_syms *syms)
{
	struct trace_namer n = { syms_name, (void *)syms };
	return n;
}

struct fold_walk {
	struct fold_table *ft;
	const struct trace_namer *namer;
	int raw;
	uint32_t *ids;
	size_t cap;
};

static size_t frame_name(const struct fold_walk *w, const struct cs_node *const *path,
			 size_t i, size_t n, char *buf, size_t cap)
{
	const struct cs_node *node = path[i];
	if (node->kind == CS_NODE_SIGNAL) {
		if (node->func)
			return (size_t)snprintf(buf, cap, "[signal %" PRIu64 "]", node->func);
		return (size_t)snprintf(buf, cap, "[signal]");
	}
	if (w->raw) {
		uint64_t addr = node->func;
		if (i + 1 < n) {
			const struct cs_node *next = path[i + 1];
			if (next->kind == CS_NODE_LEAF)
				addr = next->func;
			else if (next->kind == CS_NODE_FUNC && next->callsite)
				addr = next->callsite;
		}
		return (size_t)snprintf(buf, cap, "0x%" PRIx64, addr);
	}
	const char *name = w->namer ? w->namer->name(w->namer->ctx, node->func) : NULL;
	return (size_t)snprintf(buf, cap, "%s", name ? name : "[unknown]");
}

static int visit(void *arg, const struct cs_node *const *path, size_t n)
{
	struct fold_walk *w = arg;
	if (n > w->cap) {
		w->cap = n * 2;
		w->ids = xrealloc(w->ids, w->cap * sizeof(*w->ids));
	}
	size_t m = 0;
	char buf[1024];
	for (size_t i = 0; i < n; i++) {
		if (path[i]->kind == CS_NODE_LEAF)
			continue; /* named through its parent (raw) or folded into it */
		size_t len = frame_name(w, path, i, n, buf, sizeof(buf));
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		w->ids[m++] = fold_table_frame(w->ft, buf, len);
	}
	if (m)
		fold_table_add(w->ft, w->ids, m, path[n - 1]->weight);
	return 0;
}

void trace_fold_add(struct fold_table *ft, const struct callstack *cs,
		    const struct trace_namer *namer, int raw)
{
	struct fold_walk w = { ft, namer, raw, NULL, 0 };
	cs_walk(cs, visit, &w);
	free(w.ids);
}

void trace_counts_add(struct trace_counts *c, const struct callstack *cs)
{
	const struct cs_stats *s = cs_get_stats(cs);
	c->instructions += cs_total_weight(cs);
	c->calls += s->calls;
	c->returns += s->returns;
	c->tail_calls += s->tail_calls;
	c->underflows += s->underflows;
	c->nonlocal_pops += s->nonlocal_pops;
	c->signals += s->signals;
}

void trace_counts_format(const struct trace_counts *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "instructions %" PRIu64 ", calls %" PRIu64 ", returns %" PRIu64
		 ", tail calls %" PRIu64 ", underflows %" PRIu64 ", non-local pops %" PRIu64
		 ", signals %" PRIu64,
		 c->instructions, c->calls, c->returns, c->tail_calls, c->underflows,
		 c->nonlocal_pops, c->signals);
}
