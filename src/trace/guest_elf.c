/* guest_elf.c - function symbols (and code labels) and executable bytes of a guest ELF (libelf). */
#include "trace/guest_elf.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "symbol/symbol_demangle.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static void load_symbols(struct guest_elf *g, Elf *elf)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	scn = symtab ? symtab : dynsym;
	if (!scn) {
		g->sym_problem = "no symbol table";
		return;
	}
	Elf_Data *data = gelf_getshdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
	size_t sym_size = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!data || !sym_size) {
		g->sym_problem = "symbol table unreadable (it lies outside the file or is corrupt)";
		return;
	}
	/* Counted from the bytes read, not sh_size / sh_entsize: those are only claims. */
	size_t n = data->d_size / sym_size, m = 0;
	if (sh.sh_entsize != sym_size)
		g->sym_problem = "symbol table entry size is wrong";
	struct guest_sym_in *in = xcalloc(n ? n : 1, sizeof(*in));
	/* Names as perf prints them (C++, Rust demangled); freed once the table has copied. */
	char **demangled = xcalloc(n ? n : 1, sizeof(*demangled));
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			continue;
		int type = GELF_ST_TYPE(s.st_info), bind = GELF_ST_BIND(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		GElf_Shdr ssh;
		Elf_Scn *sscn = elf_getscn(elf, s.st_shndx);
		int have_sh = sscn && gelf_getshdr(sscn, &ssh);
		/* NOTYPE symbols name code only in executable sections (crt's load_gp). */
		if (type == STT_NOTYPE && (!have_sh || !(ssh.sh_flags & SHF_EXECINSTR)))
			continue;
		const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!name) {
			g->sym_problem = "symbol names unreadable (bad string table link or offset)";
			continue;
		}
		if (!*name)
			continue;
		/* Mapping symbols ($x, $d, $xrv64i2p1...) and assembler locals mark no code. */
		if (type == STT_NOTYPE && (name[0] == '$' || !strncmp(name, ".L", 2)))
			continue;
		uint64_t limit = have_sh ? ssh.sh_addr + ssh.sh_size : 0;
		demangled[m] = symbol_demangle(name);
		const char *shown = demangled[m] ? demangled[m] : name;
		in[m++] = (struct guest_sym_in){
			.start = s.st_value, .size = s.st_size, .limit = limit,
			.name = shown,
			.binding = bind == STB_GLOBAL ? GUEST_GLOBAL : bind == STB_WEAK ? GUEST_WEAK : GUEST_LOCAL,
			.kind = type == STT_NOTYPE ? GUEST_SYM_CODE : GUEST_SYM_FUNC,
		};
	}
	guest_syms_build(&g->syms, in, m);
	for (size_t i = 0; i < m; i++)
		free(demangled[i]);
	free(demangled);
	free(in);
}

static int load_segments(struct guest_elf *g, Elf *elf, struct tephra_error *err)
{
	size_t phnum;
	if (elf_getphdrnum(elf, &phnum) != 0) {
		tephra_error_at(err, g->path, -1, "cannot read program headers: %s", elf_errmsg(-1));
		return -1;
	}
	GElf_Ehdr eh;
	/* libelf answers 0 headers when the table is cut off by the end of the file. */
	if (gelf_getehdr(elf, &eh) && eh.e_phnum != PN_XNUM && phnum < eh.e_phnum) {
		tephra_error_at(err, g->path, (int64_t)eh.e_phoff,
				"program header table (%u entries) lies outside the file",
				(unsigned)eh.e_phnum);
		return -1;
	}
	size_t fsize, cap = 0;
	char *image = elf_rawfile(elf, &fsize);
	/* phnum is a claim (up to 2^32 through section 0): segments are allocated as found. */
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			tephra_error_at(err, g->path, -1, "cannot read program header %zu of %zu: %s",
					i, phnum, elf_errmsg(-1));
			return -1;
		}
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (!image || ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset) {
			tephra_error_at(err, g->path, (int64_t)ph.p_offset,
					"executable segment %zu lies outside the file", i);
			return -1;
		}
		if (g->nsegs == cap) {
			cap = cap ? cap * 2 : 4;
			g->segs = xrealloc(g->segs, cap * sizeof(*g->segs));
		}
		struct guest_segment *s = &g->segs[g->nsegs++];
		s->vaddr = ph.p_vaddr;
		s->offset = ph.p_offset;
		s->size = ph.p_filesz;
		s->bytes = xmalloc(ph.p_filesz ? ph.p_filesz : 1);
		memcpy(s->bytes, image + ph.p_offset, ph.p_filesz);
	}
	return 0;
}

int guest_elf_open(struct guest_elf *g, const char *path, struct tephra_error *err)
{
	memset(g, 0, sizeof(*g));
	g->path = xstrdup(path);
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		tephra_error_at(err, path, -1, "cannot open: %m");
		guest_elf_close(g);
		return -1;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int rc = -1;
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		tephra_error_at(err, path, 0, "not an ELF file");
	} else if (eh.e_machine != EM_RISCV) {
		tephra_error_at(err, path, 0x12, "ELF machine %u is not RISC-V (243)", eh.e_machine);
	} else {
		g->xlen = gelf_getclass(elf) == ELFCLASS32 ? 32 : 64;
		g->entry = eh.e_entry;
		load_symbols(g, elf);
		rc = load_segments(g, elf, err);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (rc != 0)
		guest_elf_close(g);
	return rc;
}

void guest_elf_close(struct guest_elf *g)
{
	for (size_t i = 0; i < g->nsegs; i++)
		free(g->segs[i].bytes);
	free(g->segs);
	guest_syms_release(&g->syms);
	free(g->path);
	memset(g, 0, sizeof(*g));
}

int guest_elf_fetch(const struct guest_elf *g, uint64_t pc, uint32_t *bits)
{
	for (size_t i = 0; i < g->nsegs; i++) {
		const struct guest_segment *s = &g->segs[i];
		if (pc < s->vaddr || pc - s->vaddr >= s->size)
			continue;
		uint64_t off = pc - s->vaddr;
		int avail = s->size - off >= 4 ? 4 : (int)(s->size - off);
		uint32_t v = 0;
		for (int k = 0; k < avail; k++)
			v |= (uint32_t)s->bytes[off + k] << (8 * k);
		*bits = v;
		return avail;
	}
	return 0;
}
