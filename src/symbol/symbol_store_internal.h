/* symbol_store_internal.h - the store and its dsos, shared by symbol_store.c (the
 * cache, and loading each dso's symbols from the right file) and dso.c (the lookups).
 * Internal to src/symbol. */
#ifndef TEPHRA_SYMBOL_SYMBOL_STORE_INTERNAL_H
#define TEPHRA_SYMBOL_SYMBOL_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "symbol/debug_paths.h"
#include "symbol/kallsyms.h"
#include "symbol/symbol_store.h"
#include "symbol/symbol_table.h"

#define MAX_BUILD_ID 20

struct dso {
	struct symbol_store *store;
	char *path;
	char *module;              /* DSO_MODULE: the module name */
	uint8_t key_build_id[MAX_BUILD_ID];  /* as given to symbol_store_dso (the key) */
	size_t key_build_id_size;
	uint8_t build_id[MAX_BUILD_ID];      /* the one searched for (disk's when none given) */
	size_t build_id_size;
	enum dso_kind kind;
	char *proc_root;           /* "/proc/PID/root" to look in (symbol_store_dso_in), or NULL */
	int loaded;
	int mismatch;
	char *refused;             /* the file under the root refused for its build-id,
				    * to warn of (then NULL) on the looking-up thread */
	char *skipped;             /* "PATH: why": the first file not opened (a FIFO, a
				    * device, a map file of another user: named_file.h),
				    * warned of the same way */
	char *loaded_from;
	struct symbol_table table;
	uint64_t text_offset;      /* file offset -> ELF address, for DWARF */
	int a2l_tried;
	struct a2l *a2l;           /* addr2line's answers from its DWARF, or NULL */
	int prefetch_asked;        /* symbol_store_prefetch: 1 symbols, 2 and DWARF (the
				    * caller's thread only) */
};

struct symbol_store {
	struct symbol_options opts;  /* strings owned; debug_dir and buildid_dir unused */
	struct debug_paths paths;    /* where debug files and perf's copies are */
	struct hashmap dsos;         /* path, NUL, key build-id -> struct dso * */
	int kallsyms_tried;
	struct kallsyms kallsyms;
	int kallsyms_ok;
	char *kallsyms_from;
	struct kallsyms_prefetch *prefetch; /* kallsyms loading on a second thread, or NULL */
	struct dso_prefetch *dso_prefetch;  /* objects loading on another thread, or NULL */
	const struct tephra_report *report; /* warnings, or NULL */
	size_t nr_skipped_files;     /* dsos whose file was not opened (named_file.h), */
	char *first_skipped;         /* the first as "PATH: why" (for the quality block) */
};

/* Gives D's pending warning (a refused file under the root) to the store's report;
 * the caller owns D (dso.c calls it after each load). */
void symbol_store_warn_pending(struct dso *d);

/* Loads D's symbols on the calling thread, once (the caller owns D: see
 * dso_prefetch.h). */
void symbol_store_load_now(struct dso *d);
/* The same, then opens D's DWARF for addr2line's answers, once; NULL when there is
 * none. */
struct a2l *symbol_store_a2l_now(struct dso *d);

#endif
