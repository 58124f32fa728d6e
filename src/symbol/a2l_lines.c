/* a2l_lines.c - source positions as binutils' addr2line reads them (see
 * a2l_lines.h). */
#include "symbol/a2l_lines.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether ROW takes its file from the register's initial value: no row of its
 * sequence before it names another file.  libdw lists a unit's rows sorted by
 * address, an end-of-sequence marker before rows at its own address; rows at a
 * marker's address right after it start other (here: empty) sequences, not ROW's. */
static int row_file_is_initial(Dwarf_Die *cu, Dwarf_Line *row)
{
	Dwarf_Lines *lines;
	size_t n;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return 0;
	int moved = 0, after_end = 0;
	Dwarf_Addr end_addr = 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		if (l == row)
			return !moved;
		Dwarf_Addr addr = 0;
		bool end = false;
		dwarf_lineaddr(l, &addr);
		if (dwarf_lineendsequence(l, &end) == 0 && end) {
			moved = 0;
			after_end = 1;
			end_addr = addr;
			continue;
		}
		if (after_end && addr == end_addr)
			continue;
		after_end = 0;
		Dwarf_Files *files;
		size_t idx;
		if (dwarf_line_file(l, &files, &idx) == 0 && idx != 1)
			moved = 1;
	}
	return 0;
}

/* The file of a line-table row as binutils 2.40 names it.  In a DWARF 5 table (entry
 * 0 the primary file) it reads the file register's initial value 1 as entry 0, while
 * a file set explicitly is read right (observed: perf prints `libc-start.c:58` where
 * the row, in file 1 by default, means libc_start_call_main.h; `strtod_l.c` for
 * rounding-mode.h; rows after "set file 2" print entry 2, after "set file 1" entry 1:
 * `getXXbyYY_r.c`, `profil-counter.h`). */
static const char *row_file(Dwarf_Die *cu, Dwarf_Line *row, Dwarf_Files *files, size_t idx)
{
	Dwarf_Half version = 0;
	if (idx == 1 && dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) == 0 &&
	    version >= 5 && row_file_is_initial(cu, row))
		idx = 0;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* The line table's file and line for CU_ADDR (the unit's own address) in unit CU. */
const char *a2l_lines_row(Dwarf_Die *cu, Dwarf_Addr cu_addr, unsigned *line)
{
	int lineno = 0;
	Dwarf_Line *dline = dwarf_getsrc_die(cu, cu_addr);
	Dwarf_Files *files;
	size_t idx;
	const char *f = NULL;
	bool end = false;
	if (dline && (dwarf_lineendsequence(dline, &end) != 0 || end))
		dline = NULL; /* past the end of a sequence: no line */
	if (dline && dwarf_line_file(dline, &files, &idx) == 0 && dwarf_lineno(dline, &lineno) == 0)
		f = row_file(cu, dline, files, idx);
	*line = f && lineno > 0 ? (unsigned)lineno : 0;
	return f;
}

/* Where an inlined subroutine was called from (DW_AT_call_file/line). */
const char *a2l_lines_call_site(Dwarf_Die *inl, unsigned *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word fileno = 0, lineno = 0;
	Dwarf_Files *files;
	size_t nfiles;
	Dwarf_Die cu;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &attr), &lineno) == 0)
		*line = (unsigned)lineno;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &attr), &fileno) != 0 ||
	    !dwarf_diecu(inl, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 ||
	    fileno >= nfiles)
		return NULL;
	/* call_file numbers are read as DWARF 5 means them (observed) */
	return dwarf_filesrc(files, fileno, NULL, NULL);
}

/* What `addr2line -i -f` prints for ADDR (module address), computed once. */
