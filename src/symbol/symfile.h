/* symfile.h - symbols of one ELF object, the way perf 6.1 reads them.
 *
 * Two files may take part: SYMS, the file whose symbol table is used (.symtab, else
 * .dynsym), and RUNTIME, the file that was mapped (its program headers place symbols
 * in the file-offset address space, and its .plt/.rela.plt give the foo@plt
 * entries).  They are the same file when the binary carries its own .symtab. */
#ifndef TEPHRA_SYMBOL_SYMFILE_H
#define TEPHRA_SYMBOL_SYMFILE_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol/symbol_table.h"

struct elf_handle {
	int fd;
	Elf *elf;
	char *path;
};

/* Opens PATH as an ELF file; returns 0, or -1 (not there, not ELF). */
int elf_handle_open(struct elf_handle *h, const char *path);
void elf_handle_close(struct elf_handle *h);

/* Copies the GNU build-id into OUT (up to CAP bytes); returns its size or -1. */
int elf_handle_build_id(struct elf_handle *h, uint8_t *out, size_t cap);
int elf_handle_has_symtab(struct elf_handle *h);
int elf_handle_has_dynsym(struct elf_handle *h);
/* The .gnu_debuglink file name, or NULL. */
const char *elf_handle_debuglink(struct elf_handle *h);

/* .text's sh_addr - sh_offset (perf's text_offset: file offset -> ELF address for
 * DWARF queries); 0 when there is no .text. */
uint64_t elf_handle_text_offset(struct elf_handle *h);

/* Fills T from SYMS and RUNTIME (either may be the same handle; RUNTIME may be NULL).
 * Returns the number of symbols added. */
size_t elf_load_symbols(struct symbol_table *t, struct elf_handle *syms,
			struct elf_handle *runtime);

#endif
