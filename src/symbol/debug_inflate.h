/* debug_inflate.h - a debug file's compressed DWARF sections, inflated before libdw sees
 * them.
 *
 * libdw inflates every SHF_COMPRESSED .debug_* section with zlib when a file is opened
 * (glibc's debug file: ~40 ms, most of tephra's fixed cost on a DWARF recording).  We
 * inflate the ones the inline and source-line lookups read with libdeflate (about twice
 * as fast as zlib on these sections) into buffers we own, give each section its
 * inflated data through libelf's own Elf_Data, and hide the sections those lookups never
 * read (location lists, macros, pubnames, .debug_frame) so that libdw leaves them alone.
 * Works on an Elf opened with ELF_C_READ_MMAP_PRIVATE (libdwfl's), before libdw reads
 * the file's DWARF. */
#ifndef TEPHRA_SYMBOL_DEBUG_INFLATE_H
#define TEPHRA_SYMBOL_DEBUG_INFLATE_H

#include <gelf.h>
#include <stdint.h>

struct debug_inflated {
	void **buffers;   /* inflated section data, freed by debug_inflated_free */
	size_t nr;
	int refused;      /* binutils 2.40 would refuse this file's DWARF (see below) */
};

/* Inflates ELF's compressed DWARF sections as above.  FILE_SIZE is the file's size in
 * bytes: binutils 2.40 refuses a compressed section whose inflated size is over ten
 * times it ("section .debug_info is too big"); then OUT->refused is set and nothing is
 * inflated.  So too when a DWARF section claims more than 1 GiB or more than 1032
 * times its compressed bytes (DEFLATE's limit): a crafted file's bomb (docs/hostile.md).  A section that does not inflate cleanly is left to libdw as it was.
 * Returns the number of sections inflated. */
size_t debug_inflate_sections(Elf *elf, uint64_t file_size, struct debug_inflated *out);

/* Frees the buffers; call after the Elf (and any Dwarf on it) is closed. */
void debug_inflated_free(struct debug_inflated *di);

#endif
