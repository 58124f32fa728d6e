/* a2l_symbols.c - the ELF side of binutils' addr2line as perf 6.1 meets it (see
 * a2l_symbols.h). */
#include "symbol/a2l_symbols.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* A symbol binutils' elf_find_function may pick: a function or untyped symbol. */
struct a2l_candidate {
	GElf_Addr lo, size;     /* st_value, st_size (0 counts as 1) */
	Dwarf_Addr value;       /* module address */
	const char *name;
	const char *file;       /* the STT_FILE name binutils gives it, or NULL */
	GElf_Word shndx;
	uint32_t index;         /* in the symbol table: the order of binutils' walk */
	int typed;              /* not STT_NOTYPE */
};

struct a2l_section {
	GElf_Addr addr, size;
	size_t index;
};

struct a2l_symbols {
	GElf_Addr sbias;
	struct a2l_section *sections;  /* SHF_ALLOC sections, in header order */
	size_t nr_sections;
	struct a2l_candidate *cands;   /* sorted by (shndx, lo, index) */
	size_t nr_cands;
};

static int cmp_candidate(const void *a, const void *b)
{
	const struct a2l_candidate *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

struct a2l_symbols *a2l_symbols_new(Dwfl_Module *mod)
{
	int n = dwfl_module_getsymtab(mod);
	GElf_Addr sbias = 0;
	Elf *elf = n > 0 ? dwfl_module_getelf(mod, &sbias) : NULL;
	if (!elf)
		return NULL;
	struct a2l_symbols *s = xcalloc(1, sizeof(*s));
	s->sbias = sbias;
	Elf_Scn *scn = NULL;
	size_t cap = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (s->nr_sections == cap) {
			cap = cap ? 2 * cap : 32;
			s->sections = xrealloc(s->sections, cap * sizeof(*s->sections));
		}
		s->sections[s->nr_sections++] = (struct a2l_section){ sh.sh_addr, sh.sh_size,
								       elf_ndxscn(scn) };
	}
	/* one walk of the table in binutils' order: which file symbol names each one */
	const char *file = NULL;
	int symbol_seen = 0, file_after_symbol = 0;
	cap = 0;
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
		if (s->nr_cands == cap) {
			cap = cap ? 2 * cap : 1024;
			s->cands = xrealloc(s->cands, cap * sizeof(*s->cands));
		}
		/* the file symbol before the chosen one names the file, unless the chosen
		 * one is global and some function symbol came between (binutils' rule) */
		s->cands[s->nr_cands++] = (struct a2l_candidate){
			.lo = sym.st_value,
			.size = sym.st_size ? sym.st_size : 1,
			.value = value,
			.name = name,
			.file = file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL || !file_after_symbol)
					? file : NULL,
			.shndx = shndx,
			.index = (uint32_t)i,
			.typed = type != STT_NOTYPE,
		};
	}
	if (s->nr_cands) /* cands is NULL when the table held no candidate */
		qsort(s->cands, s->nr_cands, sizeof(*s->cands), cmp_candidate);
	return s;
}

void a2l_symbols_free(struct a2l_symbols *s)
{
	if (!s)
		return;
	free(s->sections);
	free(s->cands);
	free(s);
}

/* Whether candidate C replaces BEST (same value, earlier in the table) for FADDR. */
static int better(const struct a2l_candidate *c, const struct a2l_candidate *best,
		  GElf_Addr faddr)
{
	if (best->lo + best->size <= faddr)
		return c->size > best->size;
	if (c->lo + c->size <= faddr)
		return 0;
	if (c->typed != best->typed)
		return c->typed;
	return c->size < best->size;
}

/* The ELF symbol binutils' elf_find_function picks: in the section holding the
 * address, the function or untyped symbol with the highest value not above it;
 * on equal values one that covers the address, then a typed one, then the smaller
 * one, else the first in the table. */
const char *a2l_symbols_function(const struct a2l_symbols *s, Dwarf_Addr addr,
				 Dwarf_Addr *value_out, const char **file_out)
{
	if (!s)
		return NULL;
	GElf_Addr faddr = addr - s->sbias;
	size_t want = 0;
	for (size_t i = 0; i < s->nr_sections && !want; i++)
		if (s->sections[i].addr <= faddr &&
		    faddr < s->sections[i].addr + s->sections[i].size)
			want = s->sections[i].index;
	if (!want)
		return NULL;
	/* the last candidate of section WANT with lo <= faddr */
	size_t lo = 0, hi = s->nr_cands;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct a2l_candidate *c = &s->cands[mid];
		if (c->shndx < want || (c->shndx == want && c->lo <= faddr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || s->cands[lo - 1].shndx != want)
		return NULL;
	size_t last = lo - 1, first = last;
	while (first > 0 && s->cands[first - 1].shndx == want &&
	       s->cands[first - 1].lo == s->cands[last].lo)
		first--;
	const struct a2l_candidate *best = &s->cands[first];
	for (size_t i = first + 1; i <= last; i++)
		if (better(&s->cands[i], best, faddr))
			best = &s->cands[i];
	*value_out = best->value;
	*file_out = best->file;
	return best->name;
}
