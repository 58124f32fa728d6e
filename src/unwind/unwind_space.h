/* unwind_space.h - the unwinder's view of one process's address space: the mappings
 * it has been told about, and for each mapped ELF file one libdwfl module reported at
 * the file's load bias.  Internal to src/unwind.
 *
 * Mappings are learnt lazily, when an unwind reaches an address (the caller's
 * map-lookup callback answers), and checked against the callback on every use so that
 * an exec or a remap is noticed: a contradiction makes the owner rebuild its Dwfl. */
#ifndef TEPHRA_UNWIND_UNWIND_SPACE_H
#define TEPHRA_UNWIND_UNWIND_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>

#include "symbol/debug_paths.h"
#include "unwind/unwinder.h"

struct unwind_module {
	char *path;            /* as recorded */
	char *file;            /* the file opened (build-id cache copy or root_dir + path) */
	uint64_t bias;         /* load bias: process address - ELF virtual address */
	Dwfl_Module *mod;      /* NULL when the file could not be used */
	const char *why;       /* when mod is NULL: a few words */
	/* the file's bytes, for memory reads from read-only segments (lazily set) */
	int image_tried;
	const uint8_t *image;
	size_t image_size;
};

struct unwind_known_map {
	uint64_t start, end, pgoff;
	struct unwind_module *module; /* never NULL; module->mod may be */
	uint64_t checked_walk;        /* the walk in which the callback last confirmed it */
};

struct unwind_space {
	const struct unwinder_options *opts;
	struct debug_paths paths;   /* where the mapped files' copies are (opts) */
	Dwfl *dwfl;                 /* owned by the caller; modules are reported into it */
	struct unwind_module **modules;
	size_t nr_modules, cap_modules;
	struct unwind_known_map *maps;
	size_t nr_maps, cap_maps;
	size_t last_hit;            /* index into maps of the last successful lookup */
	uint64_t walk;              /* bumped by the owner per sample: maps cannot change
				       within one sample, so a map confirmed once in it is
				       not asked about again */
	uint64_t nr_reported;
	uint64_t new_map_addr;      /* the address whose lookup last said SPACE_NEW: which
				       segment of the file that mapping holds */
};

enum unwind_space_lookup {
	SPACE_KNOWN,        /* *OUT is the known map covering the address, still valid */
	SPACE_UNMAPPED,     /* the callback knows no mapping there */
	SPACE_NEW,          /* a mapping not learnt yet: call unwind_space_learn() */
	SPACE_CONTRADICTED, /* a known map no longer matches the callback: rebuild */
};

void unwind_space_init(struct unwind_space *sp, const struct unwinder_options *opts);
/* unwind_space_clear, and the end of SP. */
void unwind_space_release(struct unwind_space *sp);
/* Drops every map and module (the owner then ends its Dwfl and starts a new one). */
void unwind_space_clear(struct unwind_space *sp);

/* Classifies ADDR; with SPACE_KNOWN sets *OUT; with SPACE_NEW fills *NEW_MAP (strings
 * valid until the next callback call). */
enum unwind_space_lookup unwind_space_lookup(struct unwind_space *sp, uint64_t addr,
					     struct unwind_known_map **out,
					     struct unwind_map *new_map);

/* Learns MAP: finds its file, reports the module into sp->dwfl (once per file and
 * bias).  Never fails: an unusable file gives a module with mod == NULL. */
void unwind_space_learn(struct unwind_space *sp, const struct unwind_map *map);

/* Reads a 64-bit little/big-endian-as-stored word at ADDR from the file bytes behind a
 * known map, if ADDR lies in a read-only PT_LOAD segment.  Returns 1 on success. */
int unwind_space_read_file_word(struct unwind_space *sp, struct unwind_known_map *m,
				uint64_t addr, uint64_t *value);

#endif
