/* flame_tree.c - merging streamed stacks into one call tree (see flame_tree.h). */
#include "render/flame_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"

/* Interned frame names: bytes in one arena, found again through an open-addressing
 * table of ids.  Offsets, not pointers, so the arena can move when it grows.
 * Its own table, not base/hashmap (whose hash_bytes it uses): measured with the map,
 * bench/render.sh's 1,000,000 stacks took 302 MB -> 322 MB peak RSS, and the first
 * 200,000 of them 1,290 M -> 1,348 M instructions (cachegrind). */
struct name_table {
	char *arena;
	size_t arena_len, arena_cap;
	size_t *off;         /* per id: start in arena (NUL-terminated there) */
	uint32_t *len;       /* per id: length without the NUL */
	uint32_t *hashes;    /* per id: hash of the bytes */
	uint32_t n, cap_ids;
	uint32_t *slots;     /* FLAME_NONE or an id */
	uint32_t nr_slots;   /* power of two */
};

struct flame_tree {
	unsigned flags;
	struct flame_node *nodes;
	uint32_t nr_nodes, cap_nodes;
	/* The child index, (parent, name) -> node, chained through the nodes themselves: no
	 * memory but a bucket array and a field per node.  On base/hashmap (integer keys)
	 * bench/render.sh's 1,000,000 stacks took 303 MB -> 632 MB peak RSS, and the first
	 * 200,000 of them 1,290 M -> 1,504 M instructions. */
	uint32_t *buckets;   /* child index: heads of hash_next chains */
	uint32_t nr_buckets; /* power of two */
	struct name_table names;
	double (*start)[2];  /* FLAME_TREE_TIME_ORDER: per node, see flame_tree_start() */
	double (*self)[2];   /* FLAME_TREE_STACK_COUNTS: per node, see flame_tree_self() */
	uint8_t *ends_stack; /* bit per node: see flame_tree_ends_stack() */
	/* The previous stack's path: folded input is usually sorted, so a stack mostly
	 * shares its first frames with the one before; those are found by comparing bytes
	 * instead of hashing.  prev_node[d] is the node at depth d+1, its name is
	 * prev_text[prev_off[d] .. prev_off[d+1]). */
	uint32_t *prev_node;
	size_t *prev_off;
	size_t prev_n, prev_cap;
	char *prev_text;
	size_t prev_text_cap;
};

static uint32_t hash_pair(uint32_t parent, uint32_t name)
{
	uint64_t k = ((uint64_t)parent << 32 | name) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(k >> 32);
}

static void names_rehash(struct name_table *nt, uint32_t nr_slots)
{
	free(nt->slots);
	nt->slots = xmalloc(sizeof(*nt->slots) * nr_slots);
	memset(nt->slots, 0xff, sizeof(*nt->slots) * nr_slots);
	nt->nr_slots = nr_slots;
	for (uint32_t id = 0; id < nt->n; id++) {
		uint32_t i = nt->hashes[id] & (nr_slots - 1);
		while (nt->slots[i] != FLAME_NONE)
			i = (i + 1) & (nr_slots - 1);
		nt->slots[i] = id;
	}
}

static uint32_t names_intern(struct name_table *nt, const char *s, size_t len)
{
	uint32_t h = (uint32_t)hash_bytes(s, len);
	uint32_t i = h & (nt->nr_slots - 1);

	for (; nt->slots[i] != FLAME_NONE; i = (i + 1) & (nt->nr_slots - 1)) {
		uint32_t id = nt->slots[i];
		if (nt->hashes[id] == h && nt->len[id] == len &&
		    !memcmp(nt->arena + nt->off[id], s, len))
			return id;
	}
	if (nt->n == nt->cap_ids) {
		nt->cap_ids = nt->cap_ids ? nt->cap_ids * 2 : 256;
		nt->off = xrealloc(nt->off, sizeof(*nt->off) * nt->cap_ids);
		nt->len = xrealloc(nt->len, sizeof(*nt->len) * nt->cap_ids);
		nt->hashes = xrealloc(nt->hashes, sizeof(*nt->hashes) * nt->cap_ids);
	}
	if (nt->arena_len + len + 1 > nt->arena_cap) {
		size_t cap = nt->arena_cap ? nt->arena_cap : 4096;
		while (cap < nt->arena_len + len + 1)
			cap *= 2;
		nt->arena = xrealloc(nt->arena, cap);
		nt->arena_cap = cap;
	}
	uint32_t id = nt->n++;
	memcpy(nt->arena + nt->arena_len, s, len);
	nt->arena[nt->arena_len + len] = '\0';
	nt->off[id] = nt->arena_len;
	nt->len[id] = (uint32_t)len;
	nt->hashes[id] = h;
	nt->arena_len += len + 1;
	nt->slots[i] = id;
	if ((uint64_t)nt->n * 2 > nt->nr_slots)
		names_rehash(nt, nt->nr_slots * 2);
	return id;
}

/* Node ids stay below FLAME_NONE, and the capacity doubles without wrapping. */
#define MAX_NODES (1u << 31)

/* Grows the per-node arrays; the new parts of the optional ones start zeroed.  Out of
 * line, so new_node stays small enough to inline where it is hot. */
static __attribute__((noinline, cold)) void grow_nodes(struct flame_tree *t)
{
	uint32_t old = t->cap_nodes;

	if (old == MAX_NODES) {
		/* Like running out of memory, which would come first on most machines. */
		xfatal("more than %u frames in one flame graph", MAX_NODES);
	}
	t->cap_nodes = old ? old * 2 : 1024;
	t->nodes = xrealloc(t->nodes, sizeof(*t->nodes) * t->cap_nodes);
	t->ends_stack = xrealloc(t->ends_stack, t->cap_nodes / 8);
	memset(t->ends_stack + old / 8, 0, (t->cap_nodes - old) / 8);
	if (t->flags & FLAME_TREE_TIME_ORDER) {
		t->start = xrealloc(t->start, sizeof(*t->start) * t->cap_nodes);
		memset(t->start + old, 0, sizeof(*t->start) * (t->cap_nodes - old));
	}
	if (t->flags & FLAME_TREE_STACK_COUNTS) {
		t->self = xrealloc(t->self, sizeof(*t->self) * t->cap_nodes);
		memset(t->self + old, 0, sizeof(*t->self) * (t->cap_nodes - old));
	}
}

static uint32_t new_node(struct flame_tree *t, uint32_t parent, uint32_t name)
{
	if (t->nr_nodes == t->cap_nodes)
		grow_nodes(t);
	uint32_t id = t->nr_nodes++;
	struct flame_node *n = &t->nodes[id];
	n->name = name;
	n->parent = parent;
	n->first_child = n->last_child = n->next_sibling = n->hash_next = FLAME_NONE;
	n->weight[0] = n->weight[1] = 0;
	if (parent != FLAME_NONE) {
		struct flame_node *p = &t->nodes[parent];
		if (p->last_child == FLAME_NONE)
			p->first_child = id;
		else
			t->nodes[p->last_child].next_sibling = id;
		p->last_child = id;
	}
	return id;
}

static void index_rehash(struct flame_tree *t, uint32_t nr_buckets)
{
	free(t->buckets);
	t->buckets = xmalloc(sizeof(*t->buckets) * nr_buckets);
	memset(t->buckets, 0xff, sizeof(*t->buckets) * nr_buckets);
	t->nr_buckets = nr_buckets;
	for (uint32_t id = 1; id < t->nr_nodes; id++) {
		struct flame_node *n = &t->nodes[id];
		uint32_t b = hash_pair(n->parent, n->name) & (nr_buckets - 1);
		n->hash_next = t->buckets[b];
		t->buckets[b] = id;
	}
}

struct flame_tree *flame_tree_new(unsigned flags)
{
	struct flame_tree *t = xcalloc(1, sizeof(*t));

	t->flags = flags;
	names_rehash(&t->names, 1024);
	new_node(t, FLAME_NONE, names_intern(&t->names, "all", 3));
	index_rehash(t, 1024);
	return t;
}

void flame_tree_free(struct flame_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->buckets);
	free(t->names.arena);
	free(t->names.off);
	free(t->names.len);
	free(t->names.hashes);
	free(t->names.slots);
	free(t->prev_node);
	free(t->prev_off);
	free(t->prev_text);
	free(t->start);
	free(t->self);
	free(t->ends_stack);
	free(t);
}

static uint32_t child_of(struct flame_tree *t, uint32_t parent, const char *s, size_t len)
{
	uint32_t name = names_intern(&t->names, s, len);
	uint32_t b = hash_pair(parent, name) & (t->nr_buckets - 1);
	for (uint32_t id = t->buckets[b]; id != FLAME_NONE; id = t->nodes[id].hash_next)
		if (t->nodes[id].parent == parent && t->nodes[id].name == name)
			return id;
	uint32_t id = new_node(t, parent, name);
	t->nodes[id].hash_next = t->buckets[b];
	t->buckets[b] = id;
	if (t->nr_nodes > t->nr_buckets)
		index_rehash(t, t->nr_buckets * 2);
	return id;
}

static void remember(struct flame_tree *t, size_t d, uint32_t node, const char *s, size_t len)
{
	if (d + 2 > t->prev_cap) {
		t->prev_cap = t->prev_cap ? t->prev_cap * 2 : 64;
		t->prev_node = xrealloc(t->prev_node, sizeof(*t->prev_node) * t->prev_cap);
		t->prev_off = xrealloc(t->prev_off, sizeof(*t->prev_off) * t->prev_cap);
		if (d == 0)
			t->prev_off[0] = 0;
	}
	size_t start = t->prev_off[d];
	if (start + len > t->prev_text_cap) {
		size_t cap = t->prev_text_cap ? t->prev_text_cap : 4096;
		while (cap < start + len)
			cap *= 2;
		t->prev_text = xrealloc(t->prev_text, cap);
		t->prev_text_cap = cap;
	}
	memcpy(t->prev_text + start, s, len);
	t->prev_node[d] = node;
	t->prev_off[d + 1] = start + len;
	t->prev_n = d + 1;
}

void flame_tree_add(struct flame_tree *t, const struct flame_span *frames, size_t n,
		    int col, double w)
{
	uint32_t at = 0;
	int rev = !!(t->flags & FLAME_TREE_REVERSE);
	int chart = !!(t->flags & FLAME_TREE_TIME_ORDER);
	int same = 1; /* still on the previous stack's path */
	size_t d = 0;
	/* Where this stack starts on a flame chart's x axis. */
	double start[2] = { t->nodes[0].weight[0], t->nodes[0].weight[1] };

	t->nodes[0].weight[col] += w;
	for (size_t i = 0; i < n; i++) {
		const struct flame_span *f = &frames[rev ? n - 1 - i : i];
		if (f->len == 0)
			continue;
		if (same && d < t->prev_n && t->prev_off[d + 1] - t->prev_off[d] == f->len &&
		    !memcmp(t->prev_text + t->prev_off[d], f->s, f->len)) {
			at = t->prev_node[d];
		} else {
			same = 0;
			if (!chart) {
				at = child_of(t, at, f->s, f->len);
			} else {
				/* A flame chart continues only the frames shared with the previous
				 * stack (found on its path above); any other frame starts anew here,
				 * even if an earlier one had its name. */
				at = new_node(t, at, names_intern(&t->names, f->s, f->len));
				t->start[at][0] = start[0];
				t->start[at][1] = start[1];
			}
			remember(t, d, at, f->s, f->len);
		}
		t->nodes[at].weight[col] += w;
		d++;
	}
	if (t->self)
		t->self[at][col] += w;
	t->ends_stack[at / 8] |= (uint8_t)(1u << (at % 8));
	t->prev_n = d;
}

static int cmp_by_name(const void *a, const void *b, void *arg)
{
	const struct flame_tree *t = arg;
	const struct name_table *nt = &t->names;
	uint32_t na = t->nodes[*(const uint32_t *)a].name, nb = t->nodes[*(const uint32_t *)b].name;
	size_t la = nt->len[na], lb = nt->len[nb];
	int c = memcmp(nt->arena + nt->off[na], nt->arena + nt->off[nb], la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

void flame_tree_finish(struct flame_tree *t)
{
	if (t->flags & FLAME_TREE_TIME_ORDER)
		return;
	uint32_t *kids = NULL;
	size_t cap = 0;
	for (uint32_t id = 0; id < t->nr_nodes; id++) {
		struct flame_node *p = &t->nodes[id];
		size_t k = 0;
		for (uint32_t c = p->first_child; c != FLAME_NONE; c = t->nodes[c].next_sibling) {
			if (k == cap) {
				cap = cap ? cap * 2 : 64;
				kids = xrealloc(kids, sizeof(*kids) * cap);
			}
			kids[k++] = c;
		}
		if (k < 2)
			continue;
		qsort_r(kids, k, sizeof(*kids), cmp_by_name, t);
		p->first_child = kids[0];
		p->last_child = kids[k - 1];
		for (size_t i = 0; i + 1 < k; i++)
			t->nodes[kids[i]].next_sibling = kids[i + 1];
		t->nodes[kids[k - 1]].next_sibling = FLAME_NONE;
	}
	free(kids);
}

void flame_tree_scale(struct flame_tree *t, int col, double factor)
{
	for (uint32_t id = 0; id < t->nr_nodes; id++) {
		t->nodes[id].weight[col] *= factor;
		if (t->start)
			t->start[id][col] *= factor;
		if (t->self)
			t->self[id][col] *= factor;
	}
}

size_t flame_tree_nr_nodes(const struct flame_tree *t)
{
	return t->nr_nodes;
}

const struct flame_node *flame_tree_node(const struct flame_tree *t, uint32_t id)
{
	return &t->nodes[id];
}

const char *flame_tree_name(const struct flame_tree *t, uint32_t name_id)
{
	return t->names.arena + t->names.off[name_id];
}

size_t flame_tree_name_len(const struct flame_tree *t, uint32_t name_id)
{
	return t->names.len[name_id];
}

double flame_tree_self(const struct flame_tree *t, uint32_t id, int col)
{
	if (t->self)
		return t->self[id][col];
	double w = t->nodes[id].weight[col];

	for (uint32_t c = t->nodes[id].first_child; c != FLAME_NONE; c = t->nodes[c].next_sibling)
		w -= t->nodes[c].weight[col];
	return w;
}

int flame_tree_ends_stack(const struct flame_tree *t, uint32_t id)
{
	return (t->ends_stack[id / 8] >> (id % 8)) & 1;
}

unsigned flame_tree_flags(const struct flame_tree *t)
{
	return t->flags;
}

double flame_tree_start(const struct flame_tree *t, uint32_t id, int col)
{
	return t->start ? t->start[id][col] : 0;
}
