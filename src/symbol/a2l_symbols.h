/* a2l_symbols.h - the ELF side of binutils' `addr2line` (2.40), which perf 6.1 runs to
 * name inline frames: which ELF symbol names an address DWARF does not name (when
 * binutils refuses a file's DWARF altogether: debug_inflate.h).  Used by a2l.c. */
#ifndef TEPHRA_SYMBOL_A2L_SYMBOLS_H
#define TEPHRA_SYMBOL_A2L_SYMBOLS_H

#include <elfutils/libdwfl.h>

/* MOD's symbol table as binutils' elf_find_function walks it, indexed once: NULL when
 * MOD has none.  Names point into MOD's file (valid while its Dwfl lives). */
struct a2l_symbols;
struct a2l_symbols *a2l_symbols_new(Dwfl_Module *mod);
void a2l_symbols_free(struct a2l_symbols *s);

/* The symbol binutils' elf_find_function picks for ADDR (module address), or NULL;
 * *VALUE_OUT its module address, *FILE_OUT the STT_FILE name binutils gives it (or
 * NULL). */
const char *a2l_symbols_function(const struct a2l_symbols *s, Dwarf_Addr addr,
				 Dwarf_Addr *value_out, const char **file_out);

#endif
