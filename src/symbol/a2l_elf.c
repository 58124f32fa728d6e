/* a2l_elf.c - the ELF side of binutils' addr2line as perf 6.1 meets it (see
 * a2l_elf.h). */
#include "symbol/a2l_elf.h"

#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* binutils 2.40 refuses a compressed section whose uncompressed size is over ten
 * times the file's size ("DWARF error: section .debug_info is too big"): addr2line
 * then answers by ELF symbols alone, and so does perf (observed on glibc's libmvec
 * debug file, ratio 10.4). */
int a2l_dwarf_refused(const char *path)
{
	static const char *const needed[] = { ".debug_info", ".debug_abbrev", ".debug_line",
					      ".debug_str", ".debug_line_str", ".debug_ranges",
					      ".debug_rnglists" };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	Elf *elf = fstat(fd, &st) == 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	size_t shstrndx;
	int refused = 0;
	if (elf && st.st_size > 0 && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		Elf_Scn *scn = NULL;
		while (!refused && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			GElf_Chdr ch;
			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED))
				continue;
			const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
			for (size_t i = 0; name && i < sizeof(needed) / sizeof(needed[0]); i++)
				if (strcmp(name, needed[i]) == 0 && gelf_getchdr(scn, &ch) &&
				    ch.ch_size / 10 > (uint64_t)st.st_size)
					refused = 1;
		}
	}
	elf_end(elf);
	close(fd);
	return refused;
}

/* The ELF symbol binutils' elf_find_function picks: in the section holding the
 * address, the function or untyped symbol with the highest value not above it;
 * on equal values one that covers the address, then a typed one, then the smaller
 * one, else the first in the table. */
const char *a2l_elf_function(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *value_out,
			     const char **file_out)
{
	int n = dwfl_module_getsymtab(mod);
	if (n <= 0)
		return NULL;
	GElf_Addr sbias = 0;
	Elf *elf = dwfl_module_getelf(mod, &sbias);
	if (!elf)
		return NULL;
	/* the section holding ADDR (file addresses) */
	size_t want = 0;
	Elf_Scn *scn = NULL;
	GElf_Addr faddr = addr - sbias;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (sh.sh_addr <= faddr && faddr < sh.sh_addr + sh.sh_size) {
			want = elf_ndxscn(scn);
			break;
		}
	}
	if (!want)
		return NULL;
	const char *best = NULL, *best_file = NULL;
	GElf_Addr best_value = 0;
	/* the file symbol before the chosen one names the file, unless the chosen one
	 * is global and some function symbol came between (binutils' rule) */
	const char *file = NULL;
	int symbol_seen = 0, file_after_symbol = 0;
	GElf_Addr best_lo = 0, best_size = 0;
	int best_typed = 0;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr value;
		GElf_Word shndx;
		Elf *symelf;
		Dwarf_Addr symbias;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx,
							   &symelf, &symbias);
		if (!name)
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE) {
			file = name;
			if (symbol_seen)
				file_after_symbol = 1;
			continue;
		}
		symbol_seen = 1;
		if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
			continue;
		if (shndx != want)
			continue;
		GElf_Addr lo = sym.st_value, size = sym.st_size ? sym.st_size : 1;
		int typed = type != STT_NOTYPE;
		if (lo > faddr || (best && lo < best_lo))
			continue;
		int better;
		if (!best || lo > best_lo)
			better = 1;
		else if (best_lo + best_size <= faddr)
			better = size > best_size;
		else if (lo + size <= faddr)
			better = 0;
		else if (typed != best_typed)
			better = typed;
		else
			better = size < best_size;
		if (better) {
			best = name;
			best_value = value;
			best_file = file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
					     !file_after_symbol) ? file : NULL;
			best_lo = lo;
			best_size = size;
			best_typed = typed;
		}
	}
	if (best) {
		*value_out = best_value;
		*file_out = best_file;
	}
	return best;
}
