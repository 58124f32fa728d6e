/* guest_modules.h - the executables and shared libraries a running guest has mapped,
 * each with its load bias, so addresses anywhere in the guest get function ids and
 * names (the QEMU plugin; offline readers know only the one ELF they are given).
 *
 * Modules are added, never removed or moved: lookups from other threads are safe while
 * one thread adds (the count is published after the module is complete).  A module
 * may have no symbols (an anonymous mapping, a stripped library): its range is still
 * remembered, so the caller does not look it up again. */
#ifndef TEPHRA_TRACE_GUEST_MODULES_H
#define TEPHRA_TRACE_GUEST_MODULES_H

#include <stdint.h>

#include "base/error.h"
#include "trace/guest_elf.h"

#define GUEST_MAX_MODULES 256

struct guest_module {
	uint64_t lo, hi;  /* guest addresses covered [lo, hi) */
	int64_t bias;     /* guest address = ELF address + bias */
	int has_elf;
	struct guest_elf elf;
};

struct guest_modules {
	struct guest_module mods[GUEST_MAX_MODULES];
	unsigned n;       /* published count (atomic) */
};

/* Adds the ELF PATH mapped with file offset MAP_OFFSET at guest address MAP_START
 * (one mapping of it, as /proc/self/maps shows).  The bias comes from the executable
 * segment holding that offset; the module covers the ELF's executable segments.
 * Returns the module, or NULL with ERR set (then a symbol-less module covering
 * [MAP_START, MAP_END) is added, unless the table is full). */
const struct guest_module *guest_modules_add_elf(struct guest_modules *m, const char *path,
						 uint64_t map_start, uint64_t map_end,
						 uint64_t map_offset, struct tephra_error *err);
/* Remembers [LO, HI) as code without symbols. */
void guest_modules_add_anon(struct guest_modules *m, uint64_t lo, uint64_t hi);

const struct guest_module *guest_modules_find(const struct guest_modules *m, uint64_t addr);

/* cs_host.func_of over all modules (CTX = struct guest_modules *): absolute starts. */
int guest_modules_func_of(void *ctx, uint64_t addr, uint64_t *start);
/* The name of the function whose absolute start is START, or NULL. */
const char *guest_modules_name(void *ctx, uint64_t start);

#endif
