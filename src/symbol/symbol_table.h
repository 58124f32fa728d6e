/* symbol_table.h - one object's symbols, sorted, with perf 6.1's fix-ups.
 *
 * Loaders append raw symbols (start, size, ELF binding, name); symbol_table_finish()
 * sorts them and applies, in perf's order, the end fix-up (a zero-size symbol ends
 * where the next one starts) and the alias choice (one symbol per start address, by
 * perf's choose_best_symbol).  Lookups are a binary search. */
#ifndef TEPHRA_SYMBOL_SYMBOL_TABLE_H
#define TEPHRA_SYMBOL_SYMBOL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "symbol/perf_rbtree.h"
#include "symbol/symbol_store.h"

struct table_symbol {
	struct dso_symbol pub;  /* name, start, end as handed out */
	uint32_t order;         /* insertion number: ties keep the earlier symbol */
	uint8_t binding;        /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	uint8_t kallsyms_module;/* kallsyms line carried a [module] tag */
	uint8_t name_final;     /* name is demangled (or needs no demangling) */
};

struct symbol_table {
	struct table_symbol *syms;
	size_t nr, cap;
	char **names;           /* owned name strings, freed with the table */
	char *arena;            /* owned block borrowed names may point into (or NULL) */
	size_t nr_names, cap_names;
	int demangle;           /* demangle names (lazily: only aliases and hits) */
	uint32_t next_order;
	/* perf_tree: mirror perf's rbtree (set before adding, for ELF tables) so that
	 * lookups among overlapping symbols answer as perf does. */
	int perf_tree;
	struct perf_rbtree tree;
	int overlapping;        /* some symbol reaches past the next one's start */
	uint32_t *pos_of_order; /* order -> index in syms, when overlapping */
};

/* Takes a copy of NAME; SIZE 0 means "ends at the next symbol". */
void symbol_table_add(struct symbol_table *t, uint64_t start, uint64_t size, int binding,
		      const char *name);
/* Takes ownership of NAME (malloc'd). */
void symbol_table_add_owned(struct symbol_table *t, uint64_t start, uint64_t size,
			    int binding, char *name);

/* NAME is not copied: it must outlive the table (e.g. point into t->arena). */
void symbol_table_add_borrowed(struct symbol_table *t, uint64_t start, uint64_t size,
			       int binding, const char *name);

/* Room for N symbols in all (a loader that knows its count: no growth by copying). */
void symbol_table_reserve(struct symbol_table *t, size_t n);

/* Sorts, fixes ends and removes aliases.  IS_KALLSYMS selects perf's kallsyms rule
 * for the gap between kernel and module symbols. */
void symbol_table_finish(struct symbol_table *t, int is_kallsyms);

/* Demangles the found symbol's name on first use. */
/* Re-sorts after symbols were added to a finished table, without fix-ups (perf
 * inserts its PLT symbols that way). */
void symbol_table_resort(struct symbol_table *t);

const struct dso_symbol *symbol_table_find(struct symbol_table *t, uint64_t addr);

void symbol_table_release(struct symbol_table *t);

#endif
