/* kallsyms.h - kernel and module symbols from a kallsyms file, as perf 6.1 keeps them.
 *
 * Only text, weak, data and bss symbols (types T, W, D, B in either case) are kept;
 * "name\t[module]" lines belong to that module.  Sizes are unknown, so each symbol
 * ends where the next starts, except at a kernel/module boundary (one page past the
 * start, rounded to a page) and for the last symbol (its page end plus a page). */
#ifndef TEPHRA_SYMBOL_KALLSYMS_H
#define TEPHRA_SYMBOL_KALLSYMS_H

#include <stdatomic.h>

#include "symbol/symbol_table.h"

struct kallsyms {
	struct symbol_table table;
	const char **modules;     /* module name of each symbol in table, NULL = kernel
				   * (points into table.arena) */
	size_t nr_modules;        /* entries in modules[] (== table.nr) */
	int restricted;           /* file readable but every address is 0 (kptr_restrict) */
};

/* Returns 0 on success, -1 if PATH cannot be read. */
int kallsyms_load(struct kallsyms *k, const char *path);
/* The same, for a loader on another thread: gives up (returns -1, K left empty) once
 * *STOP is set, checked between reads of at most 256 KB.  STOP may be NULL. */
int kallsyms_load_stoppable(struct kallsyms *k, const char *path, const atomic_int *stop);
/* The symbol at ADDR belonging to MODULE (NULL = the kernel itself). */
const struct dso_symbol *kallsyms_find(struct kallsyms *k, const char *module, uint64_t addr);
void kallsyms_release(struct kallsyms *k);

#endif
