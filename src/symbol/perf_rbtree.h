/* perf_rbtree.h - the shape of perf's symbol rbtree, to answer overlapping lookups.
 *
 * When sized symbols overlap (perf 6.1 adds its foo@plt entries after extending a
 * zero-size _init over .plt, for instance), perf's answer depends on which covering
 * symbol its rbtree search meets first.  This is a plain red-black tree (the classic
 * insert and erase rebalancing, which the kernel's rbtree also uses) over symbol ids,
 * fed the same insertions and erasures in the same order, so the search path - and
 * the answer - is perf's. */
#ifndef TEPHRA_SYMBOL_PERF_RBTREE_H
#define TEPHRA_SYMBOL_PERF_RBTREE_H

#include <stddef.h>
#include <stdint.h>

#define PERF_RBTREE_NIL UINT32_MAX

struct perf_rbtree {
	uint32_t *left, *right, *parent;
	uint64_t *key;
	uint8_t *red;
	size_t cap;
	uint32_t root;
};

void perf_rbtree_init(struct perf_rbtree *t);
/* Inserts ID with KEY; an equal key goes to the right (after existing ones). */
void perf_rbtree_insert(struct perf_rbtree *t, uint32_t id, uint64_t key);
void perf_rbtree_erase(struct perf_rbtree *t, uint32_t id);
void perf_rbtree_release(struct perf_rbtree *t);

#endif
