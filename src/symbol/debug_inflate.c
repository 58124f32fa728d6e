/* debug_inflate.c - inflating a debug file's DWARF sections for libdw (see
 * debug_inflate.h). */
#include "symbol/debug_inflate.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* The sections binutils 2.40 needs whole (its "too big" check applies to them). */
static const char *const binutils_checked[] = {
	".debug_info", ".debug_str", ".debug_line_str", ".debug_abbrev", ".debug_line",
	".debug_ranges", ".debug_rnglists",
};

/* Read by the inline-chain and source-line lookups (units, DIEs, names, ranges, lines). */
static const char *const read_by_lookups[] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_str", ".debug_line_str",
	".debug_ranges", ".debug_rnglists", ".debug_aranges", ".debug_addr",
	".debug_str_offsets", ".debug_types",
};

/* Never read by those lookups: not worth inflating. */
static const char *const never_read[] = {
	".debug_loc", ".debug_loclists", ".debug_macro", ".debug_macinfo", ".debug_pubnames",
	".debug_pubtypes", ".debug_gnu_pubnames", ".debug_gnu_pubtypes", ".debug_names",
	".debug_frame",
};

static int listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return 1;
	return 0;
}

#define LISTED(name, list) listed(name, list, sizeof(list) / sizeof(list[0]))

/* What one section may inflate to: a file's size says little (a sparse 1 GiB file holds
 * 4 MB, and its .debug_info claimed 4 GiB: 4.2 GB for a plain fold), so also at most
 * DEFLATE's ratio (1032:1) times the compressed bytes, and at most 1 GiB. */
#define INFLATE_RATIO_MAX 1032u
#define INFLATE_MAX ((uint64_t)1 << 30)

/* Whether the file's DWARF is refused: a section binutils needs inflates to more than
 * ten times the file (binutils 2.40 refuses it too), or any DWARF section claims more
 * than the bounds above (libdw would inflate it whole, so it is not left to libdw). */
static int refused_by_size(Elf *elf, size_t shstrndx, uint64_t file_size)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED) ||
		    !gelf_getchdr(scn, &ch))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (LISTED(name, binutils_checked) && ch.ch_size / 10 > file_size)
			return 1;
		if (name && !strncmp(name, ".debug_", 7) &&
		    (ch.ch_size > INFLATE_MAX || ch.ch_size / INFLATE_RATIO_MAX > sh.sh_size))
			return 1;
	}
	return 0;
}

/* Inflates one zlib section into a new buffer handed to libelf's Elf_Data; returns the
 * buffer, or NULL (section left as it was). */
static void *inflate_section(Elf_Scn *scn, GElf_Shdr *sh, int elf64, uint64_t file_size,
			     struct libdeflate_decompressor *dec)
{
	GElf_Chdr ch;
	size_t hdr = elf64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	/* the bound keeps memory proportional to the file whatever the header says */
	if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB || ch.ch_size == 0 ||
	    ch.ch_size / 10 > file_size)
		return NULL;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size <= hdr)
		return NULL;
	void *buf = xmalloc_huge(ch.ch_size); /* written whole right away */
	size_t got = 0;
	if (libdeflate_zlib_decompress(dec, (const char *)d->d_buf + hdr, d->d_size - hdr, buf,
				       ch.ch_size, &got) != LIBDEFLATE_SUCCESS ||
	    got != ch.ch_size) {
		free(buf);
		return NULL;
	}
	GElf_Shdr nsh = *sh;
	nsh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	nsh.sh_size = got;
	if (!gelf_update_shdr(scn, &nsh)) {
		free(buf);
		return NULL;
	}
	d->d_buf = buf;
	d->d_size = got;
	d->d_type = ELF_T_BYTE;
	d->d_align = ch.ch_addralign ? ch.ch_addralign : 1;
	return buf;
}

size_t debug_inflate_sections(Elf *elf, uint64_t file_size, struct debug_inflated *out)
{
	memset(out, 0, sizeof(*out));
	size_t shstrndx;
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	if (refused_by_size(elf, shstrndx, file_size)) {
		out->refused = 1;
		return 0;
	}
	int elf64 = gelf_getclass(elf) == ELFCLASS64;
	struct libdeflate_decompressor *dec = NULL;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (LISTED(name, never_read)) {
			/* libdw skips a section without contents */
			GElf_Shdr nsh = sh;
			nsh.sh_type = SHT_NOBITS;
			nsh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
			(void)gelf_update_shdr(scn, &nsh);
			continue;
		}
		if (!LISTED(name, read_by_lookups))
			continue;
		if (!dec && !(dec = libdeflate_alloc_decompressor()))
			break;
		void *buf = inflate_section(scn, &sh, elf64, file_size, dec);
		if (!buf)
			continue;
		out->buffers = xrealloc(out->buffers, (out->nr + 1) * sizeof(*out->buffers));
		out->buffers[out->nr++] = buf;
	}
	if (dec)
		libdeflate_free_decompressor(dec);
	return out->nr;
}

void debug_inflated_free(struct debug_inflated *di)
{
	for (size_t i = 0; i < di->nr; i++)
		free(di->buffers[i]);
	free(di->buffers);
	memset(di, 0, sizeof(*di));
}
