/* unwind_debuginfo.h - the unwinder's find_debuginfo callback for libdwfl.
 *
 * libdwfl asks for a module's debug file only to read its .debug_frame (when .eh_frame
 * has no row for a pc).  Opening one is costly — libdw decompresses every compressed
 * .debug_* section and follows .gnu_debugaltlink — and happens once per process, so
 * a debug file is only handed over when it has a .debug_frame section.  Internal to
 * src/unwind. */
#ifndef TEPHRA_UNWIND_UNWIND_DEBUGINFO_H
#define TEPHRA_UNWIND_UNWIND_DEBUGINFO_H

#include <elfutils/libdwfl.h>

/* A Dwfl_Callbacks.find_debuginfo: dwfl_standard_find_debuginfo, but only when one of
 * the standard places holds a debug file with .debug_frame; otherwise -1 (no debug
 * file), without any debuginfod lookup. */
int unwind_debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name);

#endif
