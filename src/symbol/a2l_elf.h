/* a2l_elf.h - the ELF side of binutils' `addr2line` (2.40), which perf 6.1 runs to
 * name inline frames: which ELF symbol names an address DWARF does not name, and when
 * binutils refuses a file's DWARF altogether.  Used by dwarf_lines.c. */
#ifndef TEPHRA_SYMBOL_A2L_ELF_H
#define TEPHRA_SYMBOL_A2L_ELF_H

#include <elfutils/libdwfl.h>

/* Whether binutils 2.40 refuses PATH's DWARF: a compressed debug section whose
 * uncompressed size is over ten times the file's size. */
int a2l_dwarf_refused(const char *path);

/* The symbol binutils' elf_find_function picks for ADDR (module address) from MOD's
 * symbol table, or NULL; *VALUE_OUT its module address, *FILE_OUT the STT_FILE name
 * binutils gives it (or NULL). */
const char *a2l_elf_function(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *value_out,
			     const char **file_out);

#endif
