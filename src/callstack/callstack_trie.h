/* callstack_trie.h - private to src/callstack: interning of call-trie nodes.
 *
 * A node is identified by (parent, kind, func, callsite); one open-addressing hash
 * table per trie finds it, nodes come from slabs of the host allocator (so a node's
 * address never changes and frames may point at it). */
#ifndef TEPHRA_CALLSTACK_CALLSTACK_TRIE_H
#define TEPHRA_CALLSTACK_CALLSTACK_TRIE_H

#include "callstack/callstack.h"

struct cs_trie;

struct cs_trie *cs_trie_new(const struct cs_host *host);
void cs_trie_free(struct cs_trie *trie, const struct cs_host *host);

/* The child of PARENT with this key, created (weight 0) on first use; NULL only when
 * the host allocator fails. */
struct cs_node *cs_trie_child(struct cs_trie *trie, const struct cs_host *host,
			      struct cs_node *parent, uint8_t kind, uint64_t func,
			      uint64_t callsite);

size_t cs_trie_count(const struct cs_trie *trie);
uint32_t cs_trie_max_depth(const struct cs_trie *trie);

#endif
