/* unwind_debuginfo.c - which debug file the unwinder lets libdwfl open (see
 * unwind_debuginfo.h). */
#include "unwind/unwind_debuginfo.h"

#include "symbol/debug_paths.h"
#include "symbol/named_file.h"
#include "symbol/symfile.h"

/* Does the ELF file PATH have a section called NAME?  Reads only the section headers
 * and their string table.  -1: no such file (or not ELF); -2: a file not to open (a
 * FIFO, a device: named_file.h). */
static int file_has_section(const char *path, const char *name)
{
	struct symfile f;
	int found;

	if (symfile_open(&f, path) != 0)
		return named_file_refused(f.why) ? -2 : -1;
	found = symfile_has_section(&f, name);
	symfile_close(&f);
	return found;
}

/* Where libdwfl's standard search would look for MOD's debug file (debug_paths.h's
 * DEBUG_PATHS_LIBDWFL).  Returns 1 when some candidate has a .debug_frame, 0 when
 * candidates exist and none has, -1 when there is no candidate.  A candidate that is a
 * FIFO or a device makes it 0: the standard search would open it by path. */
static int debug_file_has_frame(Dwfl_Module *mod, const char *modname,
				const char *debuglink_file)
{
	const unsigned char *id = NULL;
	GElf_Addr id_vaddr;
	int id_len = dwfl_module_build_id(mod, &id, &id_vaddr);
	struct debug_paths_object obj = {
		.path = modname ? modname : "", .debuglink = debuglink_file,
		.build_id = id, .build_id_size = id_len > 1 ? (size_t)id_len : 0,
	};
	struct debug_paths_list files = { 0 };
	int any = -1;

	debug_paths_list(&debug_paths_libdwfl, DEBUG_PATHS_LIBDWFL, &obj, &files);
	for (size_t i = 0; i < files.nr; i++) {
		int r = file_has_section(files.paths[i], ".debug_frame");

		if (r == -2) {
			any = 0;
			break;
		}
		if (r >= 0 && any != 1)
			any = r;
	}
	debug_paths_list_release(&files);
	return any;
}

/* libdwfl asks for a module's debug file only to read its .debug_frame (when .eh_frame
 * has nothing for a pc).  Opening a debug file is costly (libdw decompresses its
 * compressed .debug_* sections and follows .gnu_debugaltlink), and it happens once per
 * process: a debug file without .debug_frame (the usual case on x86_64, where CFI lives
 * in .eh_frame) is not worth it, so then there is no debug file for the unwinder. */
int unwind_debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name,
			  const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	/* No candidate at all: the standard search would find nothing either, except
	 * through debuginfod, which an unwinder should not wait on. */
	if (debug_file_has_frame(mod, modname, debuglink_file) != 1)
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					    debuglink_file, debuglink_crc, debuginfo_file_name);
}

