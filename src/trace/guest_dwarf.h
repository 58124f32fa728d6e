/* guest_dwarf.h - an address of a guest program as the chain of functions it is in:
 * the real function, then the functions inlined into it down to the one the address
 * belongs to, each with the source line (libdw, no addr2line).
 *
 * For ADDR the frames are, outermost first:
 *   "func (file.c:L1)"          the function (symbol table name, else DWARF's), L1 the
 *                               line of the call of the first inlined function, or of
 *                               ADDR when nothing is inlined there;
 *   "inl_[i] (file.h:L2)"       each inlined function, with the line of the next call,
 *                               the innermost with ADDR's own line.
 * Without DWARF for ADDR: "func" alone (or "[unknown]" outside every symbol, as tephra
 * emu names it). */
#ifndef TEPHRA_TRACE_GUEST_DWARF_H
#define TEPHRA_TRACE_GUEST_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "trace/guest_syms.h"

struct guest_dwarf;

/* Opens PATH's DWARF (a file without DWARF is fine: names then come from SYMS only).
 * Returns NULL with ERR set when PATH cannot be opened. */
struct guest_dwarf *guest_dwarf_open(const char *path, struct tephra_error *err);
void guest_dwarf_close(struct guest_dwarf *d);

/* One function of the chain at an address. */
struct guest_dwarf_fn {
	const char *name;    /* never NULL ("[unknown]"); valid while D is open */
	int inlined;         /* an inlined function (not the real one) */
	const char *file;    /* the source file's base name (NULL: unknown) */
	int line;            /* its line (0 with no file) */
};
#define GUEST_DWARF_MAX_CHAIN 64

/* The chain of ADDR, outermost first, into OUT[0..MAX): returns how many (1 or more
 * when MAX > 0: without DWARF the symbol's name alone, without file).  SYMS may be
 * NULL. */
size_t guest_dwarf_chain(struct guest_dwarf *d, const struct guest_syms *syms, uint64_t addr,
			 struct guest_dwarf_fn *out, size_t max);

/* Appends the frames of ADDR to OUT, separated by ';'.  SYMS may be NULL. */
void guest_dwarf_frames(struct guest_dwarf *d, const struct guest_syms *syms, uint64_t addr,
			struct strbuf *out);

#endif
