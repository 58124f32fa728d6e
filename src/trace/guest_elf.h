/* guest_elf.h - what the offline readers need from a guest executable: its function
 * table (guest_syms) and the bytes of its executable segments (to decode the
 * instruction at a pc).  Read with libelf; RISC-V ELF32 and ELF64. */
#ifndef TEPHRA_TRACE_GUEST_ELF_H
#define TEPHRA_TRACE_GUEST_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "trace/guest_syms.h"

struct guest_segment {
	uint64_t vaddr;
	uint64_t offset; /* p_offset: where the segment starts in the file */
	uint64_t size;   /* bytes present in the file (p_filesz) */
	uint8_t *bytes;
};

struct guest_elf {
	char *path;
	int xlen;                  /* 32 or 64 */
	uint64_t entry;
	struct guest_syms syms;
	struct guest_segment *segs; /* executable PT_LOAD segments */
	size_t nsegs;
	/* Why some or all function names are missing (the symbol table is absent or
	 * corrupt), or NULL: the file still decodes, so callers warn instead of failing. */
	const char *sym_problem;
};

/* Returns 0, or -1 with ERR set ("PATH: what"). */
int guest_elf_open(struct guest_elf *g, const char *path, struct tephra_error *err);
void guest_elf_close(struct guest_elf *g);

/* Reads up to 4 instruction bytes at PC (little-endian) into *BITS; returns the number
 * of bytes available (0 if PC is in no executable segment). */
int guest_elf_fetch(const struct guest_elf *g, uint64_t pc, uint32_t *bits);

#endif
