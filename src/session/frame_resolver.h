/* frame_resolver.h - a sample's frames as perf script sees them.
 *
 * Walks a callchain the way perf does for `perf script` (callee first; the
 * PERF_CONTEXT_* markers only switch between kernel and user maps; an unknown marker
 * empties the chain; at most MAX_STACK real entries), finds each address's map in the
 * machine and its symbol.  Symbols are cached per (map object, address): an address is
 * symbolized once however many samples hit it. */
#ifndef TEPHRA_SESSION_FRAME_RESOLVER_H
#define TEPHRA_SESSION_FRAME_RESOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "machine/machine.h"
#include "symbol/symbol_store.h"

#define PERF_SCRIPT_MAX_STACK 127 /* perf script's default --max-stack */

struct frame {
	uint64_t ip;                   /* the raw address */
	uint64_t addr;                 /* what perf prints: map_ip for user maps, else ip */
	const struct map_object *obj;  /* NULL: in no map ("[unknown]" dso) */
	int unwound;                   /* a user frame unwound from DWARF: perf prints the
					* functions inlined at it (see frame_inlines) */
};

struct frame_resolver {
	struct machine *machine;
	struct hashmap sym_cache;      /* key {obj id, addr} → dso_symbol pointer (or 0) */
	struct hashmap inline_cache;   /* key {obj id, addr} → index into inline_lists */
	struct inline_list *inline_lists;
	size_t nr_inline_lists, cap_inline_lists;
};

void frame_resolver_init(struct frame_resolver *r, struct machine *m);
void frame_resolver_release(struct frame_resolver *r);

/* One address of cpumode CPUMODE (PERF_MISC_*) in thread T. */
void frame_resolve(const struct frame_resolver *r, const struct thread *t, unsigned cpumode,
		   uint64_t ip, struct frame *out);

/* The sample's own ip, with perf's fallback to the other address space when the
 * sample's cpumode finds no map (perf's thread__find_map_fb). */
void frame_resolve_sample_ip(const struct frame_resolver *r, const struct thread *t,
			     unsigned cpumode, uint64_t ip, struct frame *out);

/* Fills OUT[0..return) with the callchain, callee first.  UNWOUND: the user part of the
 * chain was unwound from DWARF (frames marked so); it gets its own MAX_STACK budget after
 * the recorded part's, as in perf, so OUT needs room for 2 * MAX_STACK frames then. */
size_t frame_resolve_callchain(const struct frame_resolver *r, const struct thread *t,
			       const uint64_t *chain, uint64_t nr, size_t max_stack,
			       int unwound, struct frame *out);

/* Whether CHAIN holds an address, not only context markers.  One without (a DWARF
 * sample whose user stack the kernel could not copy) gives no frame: perf script prints
 * an empty stack.  Asked for every sample: a chain almost always ends with an address. */
static inline int frame_callchain_has_address(const uint64_t *chain, uint64_t nr)
{
	if (nr && chain[nr - 1] < PERF_CONTEXT_MAX)
		return 1;
	for (uint64_t i = 0; i < nr; i++)
		if (chain[i] < PERF_CONTEXT_MAX)
			return 1;
	return 0;
}

/* The symbol of a frame, or NULL (cached). */
const struct dso_symbol *frame_symbol(struct frame_resolver *r, const struct frame *f);

/* What perf prints in place of an unwound frame that has a symbol and DWARF inline
 * information: the functions inlined there, innermost first, ending with the
 * containing one.  Returns the number of entries (0: print the frame as it is); NAMES
 * and INLINED (0 for the entry printed with the dso, 1 for "(inlined)") stay valid
 * for the life of the resolver. */
size_t frame_inlines(struct frame_resolver *r, const struct frame *f, const char *const **names,
		     const unsigned char **inlined);

/* frame_inlines with each entry's source position as perf prints it under
 * `-F srcline` ("file:line"; "??:0" when unknown). */
size_t frame_inlines_src(struct frame_resolver *r, const struct frame *f,
			 const char *const **names, const unsigned char **inlined,
			 const char *const **srclines);

#endif
