/* a2l.h - what binutils' addr2line ("a2l") answers about one file: inlined-function
 * chains and source lines from its DWARF (libdwfl), in the file's own virtual
 * addresses.
 *
 * The chain is what binutils' `addr2line -i -f` lists, which is what perf 6.1 (built
 * without libbfd) asks for DWARF callchains: the innermost function first, then each
 * function it is inlined into, ending with the containing subprogram.  Names are the
 * linkage name when DWARF has one (mangled), else the plain name. */
#ifndef TEPHRA_SYMBOL_A2L_H
#define TEPHRA_SYMBOL_A2L_H

#include <stdint.h>

struct a2l;

/* NULL when PATH cannot be read or has no DWARF. */
struct a2l *a2l_open(const char *path);
void a2l_close(struct a2l *dl);

/* Calls CB(ARG, name) innermost first; returns the number of names (0: no DWARF
 * scope covers VADDR). */
int a2l_inline_names(struct a2l *dl, uint64_t vaddr,
		     void (*cb)(void *arg, const char *name), void *arg);

/* The same lookup with addr2line's source position of each record: FILE (NULL where
 * addr2line prints "??") and LINE (0 where it prints "?"): the innermost function's
 * line-table position, then each caller's call site.  The names are binutils' (see
 * a2l.c): DWARF linkage name or C/assembler name, else the ELF symbol. */
int a2l_inline_records(struct a2l *dl, uint64_t vaddr,
		       void (*cb)(void *arg, const char *name, const char *file,
				  unsigned line),
		       void *arg);

/* Not addr2line's answer but the DWARF's, as llvm-symbolizer --inlining gives it:
 * the functions whose ranges hold VADDR (found by the nesting of the unit's DIEs),
 * innermost first, each named by its linkage name (mangled) through abstract origins
 * and specifications, else its DW_AT_name (NULL: neither); FILE/LINE: the call site,
 * in that function, of the one inside it (NULL/0 for the innermost, and unknown).
 * Returns the number of functions (0: no DWARF function holds VADDR). */
int a2l_function_chain(struct a2l *dl, uint64_t vaddr,
		       void (*cb)(void *arg, const char *name, const char *file,
				  unsigned line),
		       void *arg);

/* Works out ahead what the lookups above need for VADDR (the parts of addr2line's
 * answer that do not depend on the order of questions), so that a second thread can
 * do the costly DWARF walks while the first reads records.  Never concurrently with
 * other calls on DL. */
void a2l_prepare(struct a2l *dl, uint64_t vaddr);

/* addr2line's first record for VADDR (what perf's srcline of a plain frame reads):
 * returns 1 with its FILE (NULL: "??") and LINE, 0 when addr2line answers nothing
 * ("??" at "??:0"). */
int a2l_first_record(struct a2l *dl, uint64_t vaddr, const char **file,
		     unsigned *line);

/* Source file and line of VADDR; returns 0, or -1 when unknown.  *FILE stays valid
 * while DL is open. */
int a2l_srcline(struct a2l *dl, uint64_t vaddr, const char **file,
		unsigned *line);

#endif
