/* callstack.c - shadow call stack over the call trie (freestanding; see callstack.h). */
#include "callstack/callstack.h"
#include "callstack/callstack_trie.h"

struct cs_frame {
	struct cs_node *node;
	uint64_t func;    /* function id (for FUNC frames) */
	uint64_t retaddr; /* expected return address, CS_NO_RETADDR if none */
	uint64_t sp;      /* caller's SP after this frame returns, or SP_UNKNOWN */
	uint8_t kind;     /* CS_NODE_FUNC or CS_NODE_SIGNAL */
	uint8_t tail_nested; /* pushed by a nested tail call: popped with the frame below */
};

#define DEFAULT_MAX_DEPTH 100000u
/* Frames whose stack pointer is unknown are never popped by stack-pointer matching. */
#define SP_UNKNOWN CS_SP_UNKNOWN

/* The frame SP rule (callstack.h): at SP, a frame with a known SP at or below it has
 * ended. */
static int ended_at_sp(const struct cs_frame *f, uint64_t sp)
{
	return f->sp != SP_UNKNOWN && f->sp <= sp;
}

struct callstack *cs_new(const struct cs_host *host, const struct cs_options *opts)
{
	struct callstack *cs = host->alloc(host->ctx, sizeof(*cs));
	if (!cs)
		return NULL;
	cs->host = *host;
	if (opts)
		cs->opts = *opts;
	if (!cs->opts.max_depth)
		cs->opts.max_depth = DEFAULT_MAX_DEPTH;
	cs->root.kind = CS_NODE_ROOT;
	cs->top = &cs->root;
	cs->trie = cs_trie_new(host);
	if (!cs->trie) {
		host->free(host->ctx, cs, sizeof(*cs));
		return NULL;
	}
	return cs;
}

void cs_free(struct callstack *cs)
{
	if (!cs)
		return;
	cs_trie_free(cs->trie, &cs->host);
	if (cs->frames)
		cs->host.free(cs->host.ctx, cs->frames, cs->frames_cap * sizeof(*cs->frames));
	cs->host.free(cs->host.ctx, cs, sizeof(*cs));
}

/* Function id of ADDR; *KNOWN says whether a symbol covered it. */
static uint64_t func_id(const struct callstack *cs, uint64_t addr, int *known)
{
	uint64_t start;
	if (cs->host.func_of && cs->host.func_of(cs->host.ctx, addr, &start)) {
		*known = 1;
		return start;
	}
	*known = 0;
	return addr;
}

static void set_top(struct callstack *cs)
{
	cs->top = cs->nframes ? cs->frames[cs->nframes - 1].node : &cs->root;
}

static int reserve_frame(struct callstack *cs)
{
	if (cs->nframes >= cs->opts.max_depth) {
		cs->stats.depth_drops++;
		return -1;
	}
	if (cs->nframes < cs->frames_cap)
		return 0;
	/* small at first: a host may keep thousands of stacks that stay shallow */
	uint32_t ncap = cs->frames_cap ? cs->frames_cap * 2 : 8;
	struct cs_frame *nf = cs->host.alloc(cs->host.ctx, ncap * sizeof(*nf));
	if (!nf) {
		cs->stats.alloc_failures++;
		return -1;
	}
	for (uint32_t i = 0; i < cs->nframes; i++)
		nf[i] = cs->frames[i];
	if (cs->frames)
		cs->host.free(cs->host.ctx, cs->frames, cs->frames_cap * sizeof(*cs->frames));
	cs->frames = nf;
	cs->frames_cap = ncap;
	return 0;
}

/* Pushes a frame whose node is the child (KIND, FUNC, CALLSITE) of the current node.
 * Returns the frame or NULL (nothing pushed) when out of memory or too deep. */
static struct cs_frame *push(struct callstack *cs, uint8_t kind, uint64_t func,
			     uint64_t callsite, uint64_t retaddr, uint64_t sp)
{
	if (reserve_frame(cs) != 0)
		return NULL;
	if (cs->opts.flags & CS_OPT_NO_CALLSITE)
		callsite = 0;
	/* The child last entered, checked here to save the call: calls repeat. */
	struct cs_node *n = cs->top->last_entered;
	if (!n || n->func != func || n->callsite != callsite || n->kind != kind) {
		n = cs_trie_child(cs->trie, &cs->host, cs->top, kind, func, callsite);
		if (!n) {
			cs->stats.alloc_failures++;
			return NULL;
		}
	}
	struct cs_frame *f = &cs->frames[cs->nframes++];
	f->node = n;
	f->func = func;
	f->retaddr = retaddr;
	f->sp = sp;
	f->kind = kind;
	f->tail_nested = 0;
	cs->top = n;
	if (cs->nframes > cs->stats.max_depth_seen)
		cs->stats.max_depth_seen = cs->nframes;
	return f;
}

/* The depth left when frame I is the first popped one: a nested tail frame takes its
 * tail-caller with it. */
static uint32_t depth_after_pop(const struct callstack *cs, uint32_t i)
{
	while (i > 0 && cs->frames[i].tail_nested)
		i--;
	return i;
}

/* Pops frames so that frame I becomes the first popped one (see depth_after_pop). */
static void pop_from(struct callstack *cs, uint32_t i)
{
	cs->nframes = depth_after_pop(cs, i);
	set_top(cs);
}

void cs_call_func(struct callstack *cs, uint64_t callsite, uint64_t func, uint64_t retaddr,
		  uint64_t sp)
{
	cs->stats.calls++;
	struct cs_frame *f = push(cs, CS_NODE_FUNC, func, callsite, retaddr, sp);
	if (f)
		f->node->calls++;
}

void cs_call(struct callstack *cs, uint64_t callsite, uint64_t target, uint64_t retaddr,
	     uint64_t sp)
{
	int known;
	cs_call_func(cs, callsite, func_id(cs, target, &known), retaddr, sp);
}

static void underflow_reroot(struct callstack *cs, uint64_t target)
{
	int known;
	uint64_t func = func_id(cs, target, &known);
	cs->stats.underflows++;
	cs->nframes = 0;
	set_top(cs);
	push(cs, CS_NODE_FUNC, func, 0, CS_NO_RETADDR, SP_UNKNOWN);
}

static void return_by_retaddr(struct callstack *cs, uint64_t target)
{
	uint32_t n = cs->nframes;
	for (uint32_t i = n; i-- > 0;) {
		if (cs->frames[i].retaddr == target) {
			cs->stats.returns++;
			cs->stats.nonlocal_pops += n - 1 - i;
			pop_from(cs, i);
			return;
		}
	}
	/* No return address matches: longjmp-like return into a live function? */
	int known;
	uint64_t func = func_id(cs, target, &known);
	if (known && n > 0) {
		const struct cs_frame *topf = &cs->frames[n - 1];
		if (topf->kind == CS_NODE_FUNC && topf->func == func) {
			cs->stats.jumps++; /* stays inside the current function */
			return;
		}
		for (uint32_t i = n - 1; i-- > 0;) {
			if (cs->frames[i].kind == CS_NODE_FUNC && cs->frames[i].func == func) {
				cs->stats.returns++;
				cs->stats.nonlocal_pops += n - 2 - i;
				pop_from(cs, i + 1);
				return;
			}
		}
	}
	/* A handler returning to the signal trampoline. */
	for (uint32_t i = n; i-- > 0;) {
		if (cs->frames[i].kind == CS_NODE_SIGNAL) {
			cs->stats.returns++;
			cs->stats.nonlocal_pops += n - 2 - i;
			pop_from(cs, i + 1);
			return;
		}
	}
	underflow_reroot(cs, target);
}

/* The first frame a return leaving SP pops (nframes: none).  Signal frames stop it. */
static uint32_t sp_return_from(const struct callstack *cs, uint64_t sp)
{
	uint32_t i = cs->nframes;
	while (i > 0 && cs->frames[i - 1].kind == CS_NODE_FUNC && ended_at_sp(&cs->frames[i - 1], sp))
		i--;
	return i;
}

uint32_t cs_depth_after_sp_return(const struct callstack *cs, uint64_t sp)
{
	uint32_t i = sp_return_from(cs, sp);
	return i == cs->nframes ? i : depth_after_pop(cs, i);
}

static void return_by_sp(struct callstack *cs, uint64_t sp)
{
	uint32_t n = cs->nframes, i = sp_return_from(cs, sp);
	if (i == n) {
		cs->stats.underflows++;
		return;
	}
	cs->stats.returns++;
	cs->stats.nonlocal_pops += n - 1 - i;
	pop_from(cs, i);
}

uint64_t cs_top_retaddr(const struct callstack *cs)
{
	return cs->nframes ? cs->frames[cs->nframes - 1].retaddr : CS_NO_RETADDR;
}

uint64_t cs_top_sp(const struct callstack *cs)
{
	return cs->nframes ? cs->frames[cs->nframes - 1].sp : SP_UNKNOWN;
}

void cs_return(struct callstack *cs, uint64_t target, uint64_t sp)
{
	if (cs->opts.match == CS_MATCH_SP)
		return_by_sp(cs, sp);
	else
		return_by_retaddr(cs, target);
}

static void tail_call_to(struct callstack *cs, uint64_t func)
{
	cs->stats.tail_calls++;
	uint32_t n = cs->nframes;
	if (n == 0 || cs->frames[n - 1].kind != CS_NODE_FUNC) {
		struct cs_frame *f = push(cs, CS_NODE_FUNC, func, 0, CS_NO_RETADDR, SP_UNKNOWN);
		if (f)
			f->node->calls++;
		return;
	}
	struct cs_frame *top = &cs->frames[n - 1];
	if (cs->opts.flags & CS_OPT_NEST_TAIL) {
		/* Back to a function of the current tail chain: pop to it, never nest. */
		for (uint32_t i = n; i-- > 0;) {
			if (cs->frames[i].func == func) {
				cs->nframes = i + 1;
				set_top(cs);
				return;
			}
			if (!cs->frames[i].tail_nested)
				break;
		}
		uint64_t retaddr = top->retaddr, sp = top->sp;
		struct cs_frame *f = push(cs, CS_NODE_FUNC, func, 0, retaddr, sp);
		if (f) {
			f->tail_nested = 1;
			f->node->tail_entered = 1;
			f->node->calls++;
		}
		return;
	}
	struct cs_node *old = top->node;
	struct cs_node *n2 = cs_trie_child(cs->trie, &cs->host, old->parent, CS_NODE_FUNC,
					   func, old->callsite);
	if (!n2) {
		cs->stats.alloc_failures++;
		return;
	}
	top->node = n2;
	top->func = func;
	n2->calls++;
	cs->top = n2;
}

void cs_tail_call_func(struct callstack *cs, uint64_t func)
{
	tail_call_to(cs, func);
}

int cs_jump(struct callstack *cs, uint64_t from, uint64_t to)
{
	int kf, kt;
	uint64_t ff = func_id(cs, from, &kf);
	uint64_t ft = func_id(cs, to, &kt);
	return cs_jump_funcs(cs, kf, ff, kt, ft);
}

void cs_tail_call(struct callstack *cs, uint64_t from, uint64_t target)
{
	(void)from;
	int known;
	tail_call_to(cs, func_id(cs, target, &known));
}

void cs_seed(struct callstack *cs, const struct cs_seed_frame *frames, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int known;
		uint64_t func = func_id(cs, frames[i].func_addr, &known);
		push(cs, CS_NODE_FUNC, func, frames[i].callsite, frames[i].retaddr,
		     frames[i].sp ? frames[i].sp : SP_UNKNOWN);
	}
}

void cs_signal_sp(struct callstack *cs, int signo, uint64_t handler, uint64_t interrupted_sp,
		  uint64_t handler_sp)
{
	cs->stats.signals++;
	struct cs_frame *f = push(cs, CS_NODE_SIGNAL, (uint64_t)(int64_t)signo, 0,
				  CS_NO_RETADDR, interrupted_sp);
	if (!f)
		return;
	f->node->calls++;
	int known;
	f = push(cs, CS_NODE_FUNC, func_id(cs, handler, &known), 0, CS_NO_RETADDR, handler_sp);
	if (f)
		f->node->calls++;
}

void cs_signal(struct callstack *cs, int signo, uint64_t handler, uint64_t sp)
{
	cs_signal_sp(cs, signo, handler, sp, sp);
}

void cs_sigreturn(struct callstack *cs)
{
	for (uint32_t i = cs->nframes; i-- > 0;) {
		if (cs->frames[i].kind == CS_NODE_SIGNAL) {
			cs->stats.sigreturns++;
			cs->nframes = i;
			set_top(cs);
			return;
		}
	}
}

void cs_unwind_to_sp(struct callstack *cs, uint64_t sp)
{
	uint32_t i = cs->nframes;
	while (i > 0 && ended_at_sp(&cs->frames[i - 1], sp))
		i--;
	if (i == cs->nframes)
		return;
	cs->stats.nonlocal_pops += cs->nframes - i;
	pop_from(cs, i);
}

void cs_clear(struct callstack *cs)
{
	cs->nframes = 0;
	set_top(cs);
}

/* Every node through the first_child / next_sibling / parent links: no path buffer,
 * so it cannot fail. */
void cs_zero_weights(struct callstack *cs)
{
	struct cs_node *root = &cs->root;
	root->weight = 0;
	struct cs_node *n = root->first_child;
	while (n) {
		n->weight = 0;
		if (n->first_child) {
			n = n->first_child;
			continue;
		}
		while (n != root && !n->next_sibling)
			n = n->parent;
		n = n != root ? n->next_sibling : NULL;
	}
}

uint64_t *cs_leaf_counter(struct callstack *cs, uint64_t pc)
{
	struct cs_node *n = cs_trie_child(cs->trie, &cs->host, cs->top, CS_NODE_LEAF, pc, 0);
	if (!n) {
		cs->stats.alloc_failures++;
		return &cs->top->weight;
	}
	return &n->weight;
}

size_t cs_node_count(const struct callstack *cs)
{
	return cs_trie_count(cs->trie);
}

/* Depth-first walk without recursion: first_child / next_sibling / parent links. */
int cs_walk(const struct callstack *cs, cs_visit_fn fn, void *arg)
{
	size_t cap = (size_t)cs_trie_max_depth(cs->trie) + 1;
	const struct cs_node **path = cs->host.alloc(cs->host.ctx, cap * sizeof(*path));
	if (!path)
		return -1;
	int rc = 0;
	const struct cs_node *root = &cs->root;
	const struct cs_node *n = root->first_child;
	while (n && rc == 0) {
		/* Deeper than when the walk started: grown meanwhile by another thread. */
		int fits = n->depth <= cap - 1;
		if (fits) {
			path[n->depth - 1] = n;
			if (n->weight)
				rc = fn(arg, path, n->depth);
		}
		if (rc)
			break;
		if (fits && n->first_child) {
			n = n->first_child;
			continue;
		}
		while (n && n != root && !n->next_sibling)
			n = n->parent;
		n = (n && n != root) ? n->next_sibling : NULL;
	}
	cs->host.free(cs->host.ctx, path, cap * sizeof(*path));
	return rc;
}

static int add_weight(void *arg, const struct cs_node *const *path, size_t n)
{
	*(uint64_t *)arg += path[n - 1]->weight;
	return 0;
}

uint64_t cs_total_weight(const struct callstack *cs)
{
	uint64_t sum = cs->root.weight;
	cs_walk(cs, add_weight, &sum);
	return sum;
}

/* Folded text writer: a host-allocated line buffer, flushed through w->write. */
#define NAME_CAP 1024
#define OUT_CAP 8192

struct folded_state {
	const struct cs_folded_writer *w;
	char *buf;
	size_t len;
};

static int flush(struct folded_state *s)
{
	int rc = s->len ? s->w->write(s->w->arg, s->buf, s->len) : 0;
	s->len = 0;
	return rc;
}

static int put(struct folded_state *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s->len == OUT_CAP) {
			int rc = flush(s);
			if (rc)
				return rc;
		}
		s->buf[s->len++] = p[i];
	}
	return 0;
}

static int write_line(void *arg, const struct cs_node *const *path, size_t n)
{
	struct folded_state *s = arg;
	char name[NAME_CAP];
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t len = s->w->name(s->w->arg, path[i], name, sizeof(name));
		if (len > sizeof(name))
			len = sizeof(name);
		if (i)
			rc = put(s, ";", 1);
		if (!rc)
			rc = put(s, name, len);
	}
	char num[24];
	size_t k = sizeof(num);
	uint64_t v = path[n - 1]->weight;
	num[--k] = '\n';
	do {
		num[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	num[--k] = ' ';
	if (!rc)
		rc = put(s, num + k, sizeof(num) - k);
	return rc;
}

int cs_write_folded(const struct callstack *cs, const struct cs_folded_writer *w)
{
	struct folded_state s = { w, NULL, 0 };
	s.buf = cs->host.alloc(cs->host.ctx, OUT_CAP);
	if (!s.buf)
		return -1;
	int rc = cs_walk(cs, write_line, &s);
	if (rc == 0)
		rc = flush(&s);
	cs->host.free(cs->host.ctx, s.buf, OUT_CAP);
	return rc;
}
