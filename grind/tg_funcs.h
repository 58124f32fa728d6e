/* tg_funcs.h - what function an address belongs to, as the call stack sees it.
 *
 * A function's id is the start address of its symbol, except that the parts of a
 * function the compiler split off (foo.cold) share the id of the function (unless
 * --keep-cold), and PLT stubs of one object share one pseudo function.  Lookups are
 * cached per address: the instrumenter asks once per translated block and the call
 * stack asks on calls and jumps. */
#ifndef TEPHRA_GRIND_TG_FUNCS_H
#define TEPHRA_GRIND_TG_FUNCS_H

#include <stdint.h>

#include "pub_tool_basics.h"

enum tg_func_flags {
	TG_FN_PLT = 1 << 0,        /* a PLT stub: never printed */
	TG_FN_RESOLVER = 1 << 1,   /* the dynamic linker's lazy resolver: it and
				    * everything it calls are never printed */
	TG_FN_BELOW_MAIN = 1 << 2, /* _start, __libc_start_main, clone, start_thread... */
	TG_FN_MAIN = 1 << 3,
	TG_FN_NOSYM = 1 << 4,      /* in an object but with no symbol: "[object]" */
	TG_FN_SKIPPED = 1 << 5,    /* object matches a --skip-obj pattern */
	TG_FN_THREAD_BASE = 1 << 6, /* clone, start_thread: what follows is a thread's
				     * start routine */
	TG_FN_STACK_ROOT = 1 << 7, /* _start, clone: nothing is below it on a stack */
	TG_FN_LIBC_START = 1 << 8, /* __libc_start_main...: the function it calls is main,
				    * whatever its symbol (stripped programs have none) */
};

struct tg_func {
	ULong id;
	HChar *name;   /* demangled, .cold stripped unless --keep-cold */
	HChar *obj;    /* object file path, NULL if none */
	UInt flags;
	Bool from_cold; /* created from a .cold part (its id is the part's start) */
};

/* The function containing ADDR, or NULL when no object or symbol covers it. */
struct tg_func *tg_func_at(Addr addr);
/* The function with id ID (as stored in call-trie nodes), or NULL. */
struct tg_func *tg_func_by_id(ULong id);
/* The pseudo function ID named NAME (no object), created on first use. */
struct tg_func *tg_func_pseudo(ULong id, const HChar *name);
/* Re-evaluates TG_FN_SKIPPED of every known function (skip patterns changed). */
void tg_funcs_reclassify(void);
/* Whether object path OBJ matches a skip pattern (full path or base name). */
Bool tg_obj_skipped(const HChar *obj);
/* cs_host.func_of: every address has a function, TG_FID_UNKNOWN for code in no
 * object. */
int tg_func_of(void *ctx, uint64_t addr, uint64_t *start);

#endif
