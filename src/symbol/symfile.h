/* symfile.h - a file symbols may come from (an ELF object, or a debug file of it) and
 * the symbols read from it, the way perf 6.1 reads them.
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

struct symfile {
	int fd;
	Elf *elf;
	char *path;
	const char *why;   /* after a failed symfile_open: named_file.h's reason, or NULL
			    * (opened, but not ELF) */
};

/* Opens PATH as an ELF file, through named_file_open (never a FIFO or a device);
 * returns 0, or -1 (not there, not a regular file, not ELF: see WHY). */
int symfile_open(struct symfile *h, const char *path);
void symfile_close(struct symfile *h);

/* Copies the GNU build-id into OUT (up to CAP bytes); returns its size or -1. */
int symfile_build_id(struct symfile *h, uint8_t *out, size_t cap);
int symfile_has_symtab(struct symfile *h);
int symfile_has_dynsym(struct symfile *h);
/* Whether the file has a section called NAME (whatever its type). */
int symfile_has_section(struct symfile *h, const char *name);
/* The .gnu_debuglink file name, or NULL. */
const char *symfile_debuglink(struct symfile *h);

/* .text's sh_addr - sh_offset (perf's text_offset: file offset -> ELF address for
 * DWARF queries); 0 when there is no .text. */
uint64_t symfile_text_offset(struct symfile *h);

/* Fills T from SYMS and RUNTIME (either may be the same handle; RUNTIME may be NULL).
 * Returns the number of symbols added. */
size_t symfile_load_symbols(struct symbol_table *t, struct symfile *syms,
			    struct symfile *runtime);

#endif
