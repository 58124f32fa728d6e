#include "symbol/symfile.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "symbol/named_file.h"
#include "symbol/symbol_demangle.h"

int symfile_open(struct symfile *h, const char *path)
{
	memset(h, 0, sizeof(*h));
	h->fd = -1;
	int fd = named_file_open(path, 0, &h->why);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	h->fd = fd;
	h->elf = elf;
	h->path = xstrdup(path);
	return 0;
}

void symfile_close(struct symfile *h)
{
	if (h->elf)
		elf_end(h->elf);
	if (h->fd >= 0)
		close(h->fd);
	free(h->path);
	memset(h, 0, sizeof(*h));
	h->fd = -1;
}

int symfile_build_id(struct symfile *h, uint8_t *out, size_t cap)
{
	const void *bid;
	ssize_t n = dwelf_elf_gnu_build_id(h->elf, &bid);

	if (n <= 0)
		return -1;
	if ((size_t)n > cap)
		n = (ssize_t)cap;
	memcpy(out, bid, (size_t)n);
	return (int)n;
}

/* The section named NAME, with its header, or NULL. */
static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *index)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		const char *n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && strcmp(n, name) == 0) {
			if (index)
				*index = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

int symfile_has_symtab(struct symfile *h)
{
	GElf_Shdr sh;
	Elf_Scn *s = section_by_name(h->elf, ".symtab", &sh, NULL);
	return s && sh.sh_type == SHT_SYMTAB;
}

int symfile_has_dynsym(struct symfile *h)
{
	GElf_Shdr sh;
	Elf_Scn *s = section_by_name(h->elf, ".dynsym", &sh, NULL);
	return s && sh.sh_type == SHT_DYNSYM;
}

int symfile_has_section(struct symfile *h, const char *name)
{
	GElf_Shdr sh;
	return section_by_name(h->elf, name, &sh, NULL) != NULL;
}

uint64_t symfile_text_offset(struct symfile *h)
{
	GElf_Shdr sh;
	if (!section_by_name(h->elf, ".text", &sh, NULL))
		return 0;
	return sh.sh_addr - sh.sh_offset;
}

const char *symfile_debuglink(struct symfile *h)
{
	GElf_Word crc;
	return dwelf_elf_gnu_debuglink(h->elf, &crc);
}

/* perf converts symbol values to file offsets with the PT_LOAD segment containing
 * them (p_vaddr - p_offset), falling back to the section (sh_addr - sh_offset).  An
 * ELF's PT_LOAD segments, read once per table (a symbol table has thousands of
 * entries, a file a handful of segments). */
struct load_segments {
	GElf_Phdr *ph;
	size_t nr;
};

static void load_segments_of(Elf *elf, struct load_segments *s)
{
	size_t n;
	s->ph = NULL;
	s->nr = 0;
	if (!elf || elf_getphdrnum(elf, &n) != 0)
		return;
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (s->nr == cap) {
			cap = cap ? 2 * cap : 8;
			s->ph = xrealloc(s->ph, cap * sizeof(*s->ph));
		}
		s->ph[s->nr++] = ph;
	}
}

static int load_bias_of(const struct load_segments *s, uint64_t value, uint64_t *bias)
{
	for (size_t i = 0; i < s->nr; i++) {
		const GElf_Phdr *ph = &s->ph[i];
		if (value >= ph->p_vaddr && value < ph->p_vaddr + ph->p_memsz) {
			*bias = ph->p_vaddr - ph->p_offset;
			return 0;
		}
	}
	return -1;
}

static int is_wanted(const GElf_Sym *sym, int *is_label)
{
	int type = GELF_ST_TYPE(sym->st_info);

	*is_label = 0;
	if (sym->st_name == 0 || sym->st_shndx == SHN_UNDEF)
		return 0;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return 1;
	if (type == STT_NOTYPE && sym->st_shndx != SHN_ABS) {
		*is_label = 1;
		return 1;
	}
	return 0;
}

static size_t load_symtab(struct symbol_table *t, Elf *syms_elf, Elf *runtime_elf)
{
	GElf_Shdr symshdr;
	Elf_Scn *symscn = section_by_name(syms_elf, ".symtab", &symshdr, NULL);

	if (!symscn || symshdr.sh_type != SHT_SYMTAB) {
		symscn = section_by_name(syms_elf, ".dynsym", &symshdr, NULL);
		if (!symscn || symshdr.sh_type != SHT_DYNSYM)
			return 0;
	}
	Elf_Data *data = elf_getdata(symscn, NULL);
	size_t shstrndx;
	GElf_Ehdr eh;
	if (!data || symshdr.sh_entsize == 0 || elf_getshdrstrndx(syms_elf, &shstrndx) != 0 ||
	    !gelf_getehdr(syms_elf, &eh))
		return 0;
	size_t nr = data->d_size / symshdr.sh_entsize, added = 0;
	struct load_segments runtime_segs, syms_segs;
	load_segments_of(runtime_elf, &runtime_segs);
	load_segments_of(syms_elf, &syms_segs);
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		int is_label;
		if (!gelf_getsym(data, (int)i, &sym) || !is_wanted(&sym, &is_label))
			continue;
		const char *name = elf_strptr(syms_elf, symshdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		/* ARM/AArch64 mapping symbols ($a, $d, $t, $x) name no function. */
		if ((eh.e_machine == EM_ARM || eh.e_machine == EM_AARCH64) && name[0] == '$')
			continue;
		if (sym.st_shndx >= SHN_LORESERVE)
			continue;
		Elf_Scn *scn = elf_getscn(syms_elf, sym.st_shndx);
		GElf_Shdr shdr;
		if (!scn || !gelf_getshdr(scn, &shdr))
			continue;
		/* Sections that occupy no memory at run time (.gnu.warning.*) */
		if (!(shdr.sh_flags & SHF_ALLOC))
			continue;
		if (is_label) {
			const char *secname = elf_strptr(syms_elf, shstrndx, shdr.sh_name);
			if (!secname || !strstr(secname, "text"))
				continue;
		}
		uint64_t bias;
		if (load_bias_of(&runtime_segs, sym.st_value, &bias) != 0 &&
		    load_bias_of(&syms_segs, sym.st_value, &bias) != 0)
			bias = shdr.sh_addr - shdr.sh_offset;
		symbol_table_add(t, sym.st_value - bias, sym.st_size, GELF_ST_BIND(sym.st_info),
				 name);
		added++;
	}
	free(runtime_segs.ph);
	free(syms_segs.ph);
	return added;
}

/* perf 6.1's PLT symbols: one "name@plt" per .rela.plt/.rel.plt entry, each
 * sh_entsize bytes after the .plt header (one entry in size), in file offsets. */
static size_t load_plt(struct symbol_table *t, Elf *elf, int demangle)
{
	GElf_Shdr dynshdr, relshdr, pltshdr;
	size_t dynidx;
	Elf_Scn *dynscn = section_by_name(elf, ".dynsym", &dynshdr, &dynidx);
	if (!dynscn || dynshdr.sh_type != SHT_DYNSYM)
		return 0;
	Elf_Scn *relscn = section_by_name(elf, ".rela.plt", &relshdr, NULL);
	if (!relscn)
		relscn = section_by_name(elf, ".rel.plt", &relshdr, NULL);
	if (!relscn || relshdr.sh_link != dynidx || relshdr.sh_entsize == 0)
		return 0;
	if (!section_by_name(elf, ".plt", &pltshdr, NULL))
		return 0;
	Elf_Data *rel = elf_getdata(relscn, NULL), *dyn = elf_getdata(dynscn, NULL);
	GElf_Ehdr eh;
	if (!rel || !dyn || !gelf_getehdr(elf, &eh))
		return 0;
	uint64_t header = pltshdr.sh_entsize, entry = pltshdr.sh_entsize;
	switch (eh.e_machine) {
	case EM_ARM: header = 20; entry = 12; break;
	case EM_AARCH64: header = 32; entry = 16; break;
	case EM_SPARC: header = 48; entry = 12; break;
	case EM_SPARCV9: header = 128; entry = 32; break;
	default: break;
	}
	uint64_t off = pltshdr.sh_offset + header;
	size_t nr = rel->d_size / relshdr.sh_entsize, added = 0;
	for (size_t i = 0; i < nr; i++) {
		uint64_t info;
		if (relshdr.sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(rel, (int)i, &r))
				break;
			info = r.r_info;
		} else if (relshdr.sh_type == SHT_REL) {
			GElf_Rel r;
			if (!gelf_getrel(rel, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			break;
		}
		GElf_Sym sym;
		const char *name = NULL;
		if (gelf_getsym(dyn, (int)GELF_R_SYM(info), &sym))
			name = elf_strptr(elf, dynshdr.sh_link, sym.st_name);
		if (!name)
			name = "";
		char *dem = demangle ? symbol_demangle(name) : NULL;
		size_t len = strlen(dem ? dem : name) + 5;
		char *full = xmalloc(len);
		snprintf(full, len, "%s@plt", dem ? dem : name);
		free(dem);
		symbol_table_add_owned(t, off, entry, STB_GLOBAL, full);
		off += entry;
		added++;
	}
	return added;
}

size_t symfile_load_symbols(struct symbol_table *t, struct symfile *syms,
			    struct symfile *runtime)
{
	t->perf_tree = 1;
	size_t n = load_symtab(t, syms->elf, runtime ? runtime->elf : NULL);

	if (n == 0)
		return 0;
	/* perf adds the PLT entries after fixing ends and aliases of the table. */
	symbol_table_finish(t, 0);
	size_t plt = load_plt(t, runtime ? runtime->elf : syms->elf, t->demangle);
	if (plt)
		symbol_table_resort(t);
	return n + plt;
}
