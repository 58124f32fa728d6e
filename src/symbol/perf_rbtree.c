#include "symbol/perf_rbtree.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void perf_rbtree_init(struct perf_rbtree *t)
{
	memset(t, 0, sizeof(*t));
	t->root = PERF_RBTREE_NIL;
}

void perf_rbtree_release(struct perf_rbtree *t)
{
	free(t->left);
	free(t->right);
	free(t->parent);
	free(t->key);
	free(t->red);
	perf_rbtree_init(t);
}

static void ensure(struct perf_rbtree *t, uint32_t id)
{
	if (id < t->cap)
		return;
	size_t cap = t->cap ? t->cap : 256;
	while (cap <= id)
		cap *= 2;
	t->left = xrealloc(t->left, cap * sizeof(*t->left));
	t->right = xrealloc(t->right, cap * sizeof(*t->right));
	t->parent = xrealloc(t->parent, cap * sizeof(*t->parent));
	t->key = xrealloc(t->key, cap * sizeof(*t->key));
	t->red = xrealloc(t->red, cap * sizeof(*t->red));
	t->cap = cap;
}

static int is_red(const struct perf_rbtree *t, uint32_t n)
{
	return n != PERF_RBTREE_NIL && t->red[n];
}

/* Puts NEW where OLD hangs from its parent. */
static void replace_child(struct perf_rbtree *t, uint32_t parent, uint32_t old, uint32_t new)
{
	if (parent == PERF_RBTREE_NIL)
		t->root = new;
	else if (t->left[parent] == old)
		t->left[parent] = new;
	else
		t->right[parent] = new;
}

static void rotate_left(struct perf_rbtree *t, uint32_t x)
{
	uint32_t y = t->right[x];
	t->right[x] = t->left[y];
	if (t->left[y] != PERF_RBTREE_NIL)
		t->parent[t->left[y]] = x;
	t->parent[y] = t->parent[x];
	replace_child(t, t->parent[x], x, y);
	t->left[y] = x;
	t->parent[x] = y;
}

static void rotate_right(struct perf_rbtree *t, uint32_t x)
{
	uint32_t y = t->left[x];
	t->left[x] = t->right[y];
	if (t->right[y] != PERF_RBTREE_NIL)
		t->parent[t->right[y]] = x;
	t->parent[y] = t->parent[x];
	replace_child(t, t->parent[x], x, y);
	t->right[y] = x;
	t->parent[x] = y;
}

void perf_rbtree_insert(struct perf_rbtree *t, uint32_t id, uint64_t key)
{
	ensure(t, id);
	t->key[id] = key;
	t->left[id] = t->right[id] = PERF_RBTREE_NIL;
	t->red[id] = 1;
	uint32_t p = PERF_RBTREE_NIL, n = t->root;
	int go_left = 0;
	while (n != PERF_RBTREE_NIL) {
		p = n;
		go_left = key < t->key[n];
		n = go_left ? t->left[n] : t->right[n];
	}
	t->parent[id] = p;
	if (p == PERF_RBTREE_NIL)
		t->root = id;
	else if (go_left)
		t->left[p] = id;
	else
		t->right[p] = id;

	uint32_t z = id;
	while (is_red(t, t->parent[z])) {
		uint32_t zp = t->parent[z], g = t->parent[zp];
		if (zp == t->left[g]) {
			uint32_t u = t->right[g];
			if (is_red(t, u)) {
				t->red[zp] = 0;
				t->red[u] = 0;
				t->red[g] = 1;
				z = g;
				continue;
			}
			if (z == t->right[zp]) {
				z = zp;
				rotate_left(t, z);
				zp = t->parent[z];
				g = t->parent[zp];
			}
			t->red[zp] = 0;
			t->red[g] = 1;
			rotate_right(t, g);
		} else {
			uint32_t u = t->left[g];
			if (is_red(t, u)) {
				t->red[zp] = 0;
				t->red[u] = 0;
				t->red[g] = 1;
				z = g;
				continue;
			}
			if (z == t->left[zp]) {
				z = zp;
				rotate_right(t, z);
				zp = t->parent[z];
				g = t->parent[zp];
			}
			t->red[zp] = 0;
			t->red[g] = 1;
			rotate_left(t, g);
		}
	}
	t->red[t->root] = 0;
}

/* Classic delete fix-up; X may be NIL, so its parent is passed along. */
static void erase_fixup(struct perf_rbtree *t, uint32_t x, uint32_t xp)
{
	while (x != t->root && !is_red(t, x)) {
		if (x == t->left[xp]) {
			uint32_t w = t->right[xp];
			if (is_red(t, w)) {
				t->red[w] = 0;
				t->red[xp] = 1;
				rotate_left(t, xp);
				w = t->right[xp];
			}
			if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
				t->red[w] = 1;
				x = xp;
				xp = t->parent[x];
				continue;
			}
			if (!is_red(t, t->right[w])) {
				t->red[t->left[w]] = 0;
				t->red[w] = 1;
				rotate_right(t, w);
				w = t->right[xp];
			}
			t->red[w] = t->red[xp];
			t->red[xp] = 0;
			if (t->right[w] != PERF_RBTREE_NIL)
				t->red[t->right[w]] = 0;
			rotate_left(t, xp);
			x = t->root;
			break;
		} else {
			uint32_t w = t->left[xp];
			if (is_red(t, w)) {
				t->red[w] = 0;
				t->red[xp] = 1;
				rotate_right(t, xp);
				w = t->left[xp];
			}
			if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
				t->red[w] = 1;
				x = xp;
				xp = t->parent[x];
				continue;
			}
			if (!is_red(t, t->left[w])) {
				t->red[t->right[w]] = 0;
				t->red[w] = 1;
				rotate_left(t, w);
				w = t->left[xp];
			}
			t->red[w] = t->red[xp];
			t->red[xp] = 0;
			if (t->left[w] != PERF_RBTREE_NIL)
				t->red[t->left[w]] = 0;
			rotate_right(t, xp);
			x = t->root;
			break;
		}
	}
	if (x != PERF_RBTREE_NIL)
		t->red[x] = 0;
}

void perf_rbtree_erase(struct perf_rbtree *t, uint32_t z)
{
	uint32_t x, xp;
	int removed_red;

	if (t->left[z] == PERF_RBTREE_NIL || t->right[z] == PERF_RBTREE_NIL) {
		x = t->left[z] != PERF_RBTREE_NIL ? t->left[z] : t->right[z];
		xp = t->parent[z];
		removed_red = t->red[z];
		replace_child(t, t->parent[z], z, x);
		if (x != PERF_RBTREE_NIL)
			t->parent[x] = xp;
	} else {
		/* the successor takes Z's place and colour */
		uint32_t y = t->right[z];
		while (t->left[y] != PERF_RBTREE_NIL)
			y = t->left[y];
		removed_red = t->red[y];
		x = t->right[y];
		if (t->parent[y] == z) {
			xp = y;
		} else {
			xp = t->parent[y];
			t->left[xp] = x;
			if (x != PERF_RBTREE_NIL)
				t->parent[x] = xp;
			t->right[y] = t->right[z];
			t->parent[t->right[z]] = y;
		}
		replace_child(t, t->parent[z], z, y);
		t->parent[y] = t->parent[z];
		t->left[y] = t->left[z];
		t->parent[t->left[z]] = y;
		t->red[y] = t->red[z];
	}
	if (!removed_red)
		erase_fixup(t, x, xp);
}
