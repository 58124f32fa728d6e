/* unwind_debuginfo.c - which debug file the unwinder lets libdwfl open (see
 * unwind_debuginfo.h). */
#include "unwind/unwind_debuginfo.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/debug_paths.h"

/* Does the ELF file PATH have a section called NAME?  Reads only the section headers
 * and their string table.  -1: no such file (or not ELF). */
static int file_has_section(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int found = 0;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
			const char *n = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;

			found = n && !strcmp(n, name);
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* Where libdwfl's standard search would look for MOD's debug file (debug_paths.h's
 * DEBUG_PATHS_LIBDWFL).  Returns 1 when some candidate has a .debug_frame, 0 when
 * candidates exist and none has, -1 when there is no candidate. */
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
	for (size_t i = 0; i < files.nr && any != 1; i++) {
		int r = file_has_section(files.paths[i], ".debug_frame");

		if (r >= 0)
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

