/* callstack_trie.c - interning of call-trie nodes (freestanding: host allocator only). */
#include "callstack/callstack_trie.h"

/* Nodes are carved from slabs so that a node never moves.  A trie starts small and
 * grows with its nodes (the table doubles, each slab is twice the last, up to
 * SLAB_MAX_NODES): a stack that only ever sees a function or two costs about a KiB,
 * since a host may make thousands of them (a QEMU log naming 4096 cpus). */
#define INITIAL_SLOTS 16
#define SLAB_MIN_NODES 8
#define SLAB_MAX_NODES 512

struct cs_slab {
	struct cs_slab *next;
	size_t cap;             /* nodes[] holds cap nodes */
	struct cs_node nodes[];
};

/* Its own table, not src/base/hashmap: this code is compiled into the Valgrind tool,
 * which has no libc (base/ calls malloc, memcmp and abort), so it allocates through
 * the host; and a node is found by its fields in place (no key copy), a slot per node. */
struct cs_trie {
	struct cs_node **slots; /* open addressing, linear probing; NULL = empty */
	size_t cap;             /* power of two */
	size_t count;
	struct cs_slab *slabs;  /* newest first; slab_used nodes of the newest are taken */
	size_t slab_used;
	uint32_t max_depth;
};

static size_t slab_bytes(size_t cap)
{
	return sizeof(struct cs_slab) + cap * sizeof(struct cs_node);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t key_hash(const struct cs_node *parent, uint8_t kind, uint64_t func,
			 uint64_t callsite)
{
	return mix((uint64_t)(uintptr_t)parent ^ mix(func + kind) ^ (callsite * 0x9e3779b97f4a7c15ULL));
}

struct cs_trie *cs_trie_new(const struct cs_host *host)
{
	struct cs_trie *t = host->alloc(host->ctx, sizeof(*t));
	if (!t)
		return NULL;
	t->cap = INITIAL_SLOTS;
	t->slots = host->alloc(host->ctx, t->cap * sizeof(*t->slots));
	if (!t->slots) {
		host->free(host->ctx, t, sizeof(*t));
		return NULL;
	}
	return t; /* no slab: the first node makes one */
}

void cs_trie_free(struct cs_trie *t, const struct cs_host *host)
{
	if (!t)
		return;
	struct cs_slab *s = t->slabs;
	while (s) {
		struct cs_slab *next = s->next;
		host->free(host->ctx, s, slab_bytes(s->cap));
		s = next;
	}
	host->free(host->ctx, t->slots, t->cap * sizeof(*t->slots));
	host->free(host->ctx, t, sizeof(*t));
}

static int grow(struct cs_trie *t, const struct cs_host *host)
{
	size_t ncap = t->cap * 2;
	struct cs_node **ns = host->alloc(host->ctx, ncap * sizeof(*ns));
	if (!ns)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		struct cs_node *n = t->slots[i];
		if (!n)
			continue;
		size_t j = key_hash(n->parent, n->kind, n->func, n->callsite) & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = n;
	}
	host->free(host->ctx, t->slots, t->cap * sizeof(*t->slots));
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

struct cs_node *cs_trie_child(struct cs_trie *t, const struct cs_host *host,
			      struct cs_node *parent, uint8_t kind, uint64_t func,
			      uint64_t callsite)
{
	struct cs_node *last = parent->last_entered;
	if (last && last->func == func && last->callsite == callsite && last->kind == kind)
		return last;
	size_t mask = t->cap - 1;
	size_t i = key_hash(parent, kind, func, callsite) & mask;
	for (;;) {
		struct cs_node *n = t->slots[i];
		if (!n)
			break;
		if (n->parent == parent && n->func == func && n->callsite == callsite &&
		    n->kind == kind) {
			parent->last_entered = n;
			return n;
		}
		i = (i + 1) & mask;
	}
	/* Not found: create.  Keep the load factor under 1/2. */
	if ((t->count + 1) * 2 > t->cap) {
		if (grow(t, host) != 0)
			return NULL;
		return cs_trie_child(t, host, parent, kind, func, callsite);
	}
	if (!t->slabs || t->slab_used == t->slabs->cap) {
		size_t cap = !t->slabs ? SLAB_MIN_NODES
			     : t->slabs->cap < SLAB_MAX_NODES ? 2 * t->slabs->cap : SLAB_MAX_NODES;
		struct cs_slab *s = host->alloc(host->ctx, slab_bytes(cap));
		if (!s)
			return NULL;
		s->cap = cap;
		s->next = t->slabs;
		t->slabs = s;
		t->slab_used = 0;
	}
	struct cs_node *n = &t->slabs->nodes[t->slab_used++];
	n->parent = parent;
	n->kind = kind;
	n->func = func;
	n->callsite = callsite;
	n->depth = parent->depth + 1;
	n->next_sibling = parent->first_child;
	/* A host may walk the trie from another thread (QEMU plugin checkpoints): the node
	 * is complete before it becomes reachable. */
	__asm__ volatile("" ::: "memory");
	parent->first_child = n;
	if (n->depth > t->max_depth)
		t->max_depth = n->depth;
	t->slots[i] = n;
	t->count++;
	parent->last_entered = n;
	return n;
}

size_t cs_trie_count(const struct cs_trie *t)
{
	return t->count;
}

uint32_t cs_trie_max_depth(const struct cs_trie *t)
{
	return t->max_depth;
}
