/* maps.h - one address space: sorted, non-overlapping mappings with perf's rules.
 *
 * A new mapping that overlaps existing ones replaces the overlapped parts: an old map that
 * sticks out before the new one keeps its head, one that sticks out after keeps its tail
 * (with pgoff moved so its addresses still mean the same file offsets).  This is what the
 * kernel did to the process, and what perf's maps__fixup_overlappings() models. */
#ifndef TEPHRA_MACHINE_MAPS_H
#define TEPHRA_MACHINE_MAPS_H

#include <stddef.h>
#include <stdint.h>

/* What a mapping maps: shared by every map of the same object (owned by the machine). */
struct map_object {
	const char *name;   /* the dso name perf script prints inside "( )" */
	struct dso *dso;    /* symbols (symbol/symbol_store.h); NULL without a store */
	unsigned identity;  /* map_ip(ip) = ip: anon/JIT, [heap], [stack] (no file offsets) */
	unsigned kernel;    /* kernel or module: perf script prints the raw address */
	/* Which file under the name (MMAP2): two processes may map two files at one path
	 * (one in a chroot or container); zero: not recorded */
	uint32_t maj, min;
	uint64_t ino;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint32_t id;        /* dense index, for per-object caches */
};

struct map_entry {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;
	const struct map_object *obj;
};

struct maps {
	struct map_entry *v; /* sorted by start, non-overlapping */
	size_t n, cap;
	unsigned refs;       /* threads sharing this address space */
	/* Set by the owner (the machine) to a value never used before whenever the maps
	 * change, so (version, address) names a resolution that can be cached. */
	uint64_t version;
};

struct maps *maps_new(void);
struct maps *maps_clone(const struct maps *m); /* a fork: a private copy, refs = 1 */
void maps_get(struct maps *m);
void maps_put(struct maps *m);                 /* frees at refs == 0 */

/* Inserts E, replacing what it overlaps as described above.  Empty maps are ignored. */
void maps_insert(struct maps *m, const struct map_entry *e);

/* The map containing ADDR, or NULL.  Valid until the next maps_insert. */
const struct map_entry *maps_find(const struct maps *m, uint64_t addr);

/* The address perf looks symbols up with and prints for user frames. */
static inline uint64_t map_entry_map_ip(const struct map_entry *e, uint64_t ip)
{
	return e->obj->identity ? ip : ip - e->start + e->pgoff;
}

#endif
