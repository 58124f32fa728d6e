/* symbol_inflate_bomb - debug_inflate_sections on a crafted debug file: a sparse 1 GiB
 * ELF (a few KB on disk) whose compressed .debug_info claims 4 GiB passes binutils'
 * "ten times the file" check; it must be refused without inflating (before: 4.2 GB).
 * Also a section claiming more than 1032 times its compressed bytes. */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "symbol/debug_inflate.h"

/* Writes an ELF64 file PATH of SIZE bytes (sparse) with one SHF_COMPRESSED .debug_info
 * that claims CLAIM bytes and holds zlib of RAW zero bytes. */
static int write_bomb(const char *path, uint64_t size, uint64_t claim, size_t raw)
{
	unsigned char *zeros = calloc(1, raw);
	uLongf zlen = compressBound(raw);
	unsigned char *z = malloc(zlen);
	if (!zeros || !z || compress2(z, &zlen, zeros, raw, 9) != Z_OK)
		return -1;
	static const char shstr[] = "\0.shstrtab\0.debug_info";
	Elf64_Chdr ch = { .ch_type = ELFCOMPRESS_ZLIB, .ch_size = claim, .ch_addralign = 1 };
	uint64_t str_off = sizeof(Elf64_Ehdr), sec_off = str_off + sizeof(shstr);
	uint64_t sh_off = (sec_off + sizeof(ch) + zlen + 7) & ~7ull;
	Elf64_Ehdr eh = { .e_type = ET_REL, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
			  .e_shoff = sh_off, .e_ehsize = sizeof(eh), .e_shentsize = sizeof(Elf64_Shdr),
			  .e_shnum = 3, .e_shstrndx = 1 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	Elf64_Shdr sh[3] = { { 0 },
		{ .sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = str_off, .sh_size = sizeof(shstr),
		  .sh_addralign = 1 },
		{ .sh_name = 11, .sh_type = SHT_PROGBITS, .sh_flags = SHF_COMPRESSED,
		  .sh_offset = sec_off, .sh_size = sizeof(ch) + zlen, .sh_addralign = 8 } };
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(shstr, sizeof(shstr), 1, f);
	fwrite(&ch, sizeof(ch), 1, f);
	fwrite(z, zlen, 1, f);
	fseek(f, (long)sh_off, SEEK_SET);
	fwrite(sh, sizeof(sh), 1, f);
	fclose(f);
	free(zeros);
	free(z);
	return truncate(path, (off_t)size);
}

/* debug_inflate_sections on PATH as a2l calls it (libdwfl's ELF_C_READ_MMAP_PRIVATE) */
static size_t inflate_file(const char *path, uint64_t size, struct debug_inflated *out)
{
	int fd = open(path, O_RDONLY);
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	size_t n = debug_inflate_sections(elf, size, out);
	elf_end(elf);
	close(fd);
	return n;
}

int main(void)
{
	char path[] = "/tmp/tephra-bomb-XXXXXX";
	int fd = mkstemp(path);
	struct debug_inflated di;

	if (fd < 0)
		return 1;
	close(fd);
	/* 4 GiB claimed in a 1 GiB sparse file: under binutils' 10x, over 1 GiB */
	CHECK(write_bomb(path, 1ull << 30, 4ull << 30, 1 << 20) == 0);
	CHECK(inflate_file(path, 1ull << 30, &di) == 0);
	CHECK(di.refused);
	debug_inflated_free(&di);
	/* 600 MB claimed from ~1 KB of zlib: past 1032:1 */
	CHECK(write_bomb(path, 1ull << 30, 600u << 20, 1 << 20) == 0);
	CHECK(inflate_file(path, 1ull << 30, &di) == 0);
	CHECK(di.refused);
	debug_inflated_free(&di);
	/* an honest section (64 KiB of zeros, claimed as such) is inflated */
	CHECK(write_bomb(path, 1ull << 30, 1 << 16, 1 << 16) == 0);
	CHECK(inflate_file(path, 1ull << 30, &di) == 1);
	CHECK(!di.refused);
	debug_inflated_free(&di);
	unlink(path);
	return failures != 0;
}
