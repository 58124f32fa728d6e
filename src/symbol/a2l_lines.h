/* a2l_lines.h - the source positions binutils' `addr2line` (2.40) prints, which perf
 * 6.1 shows under `-F srcline`: a line-table row's file and line, an inlined call's
 * call site.  Used by a2l.c. */
#ifndef TEPHRA_SYMBOL_A2L_LINES_H
#define TEPHRA_SYMBOL_A2L_LINES_H

#include <elfutils/libdw.h>

/* The file (NULL: none) and *LINE (0: none) of unit CU's row for CU_ADDR (the unit's
 * own address); no row past the end of a sequence. */
const char *a2l_lines_row(Dwarf_Die *cu, Dwarf_Addr cu_addr, unsigned *line);

/* Where inlined subroutine INL was called from (DW_AT_call_file, *LINE). */
const char *a2l_lines_call_site(Dwarf_Die *inl, unsigned *line);

#endif
