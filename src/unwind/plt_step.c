/* plt_step.c - the first frame of a sample taken inside a PLT stub that has no CFI.
 *
 * GNU ld writes .eh_frame for its .plt; lld does not.  A sample whose pc is a PLT
 * stub of an lld-linked file then has no FDE for frame 0: libdwfl falls back to frame
 * pointers (garbage under -fomit-frame-pointer: "bad memory read" after one frame)
 * while `perf script` shows the caller.  A PLT stub only jumps: on x86_64 the return
 * address its caller pushed is still at [rsp], so the caller's pc is [rsp] and its sp
 * is rsp + 8.  We take that step ourselves and let the walk go on from the caller. */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind_internal.h"

#define DWARF_RSP 7

/* Whether a section name is one of the linkers' PLT sections. */
static int is_plt_section(const char *name)
{
	return name && (!strcmp(name, ".plt") || !strcmp(name, ".plt.sec") ||
			!strcmp(name, ".plt.got") || !strcmp(name, ".iplt"));
}

/* Whether MOD has CFI (.eh_frame or .debug_frame) for PC. */
static int has_cfi(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi[2];

	cfi[0] = dwfl_module_eh_cfi(mod, &bias);
	if (cfi[0]) {
		Dwarf_Frame *frame = NULL;

		if (dwarf_cfi_addrframe(cfi[0], pc - bias, &frame) == 0) {
			free(frame);
			return 1;
		}
	}
	cfi[1] = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi[1]) {
		Dwarf_Frame *frame = NULL;

		if (dwarf_cfi_addrframe(cfi[1], pc - bias, &frame) == 0) {
			free(frame);
			return 1;
		}
	}
	return 0;
}

/* Whether PC lies in a PLT section of MOD's file. */
static int in_plt(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (!sh || sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR))
			continue;
		if (pc - bias < sh->sh_addr || pc - bias - sh->sh_addr >= sh->sh_size)
			continue;
		return is_plt_section(elf_strptr(elf, shstrndx, sh->sh_name));
	}
	return 0;
}

enum plt_step_result unwind_plt_step(struct dwarf_unwinder *u)
{
	struct unwind_result *res = u->res;
	struct unwind_known_map *km = NULL;
	uint64_t ra;

	if (u->arch->elf_machine != EM_X86_64 || res->nr_frames != 0 || res->max_frames < 2 ||
	    !(u->dwarf_valid & (1u << DWARF_RSP)))
		return PLT_NOT_HERE;
	switch (unwind_space_lookup(&u->space, u->ip, &km, &u->new_map)) {
	case SPACE_KNOWN:
		break;
	case SPACE_UNMAPPED:
		return PLT_NOT_HERE;
	case SPACE_NEW:
		u->want_learn = 1;
		return PLT_RESTART;
	case SPACE_CONTRADICTED:
		u->want_rebuild = 1;
		return PLT_RESTART;
	}
	if (!km->module->mod || !in_plt(km->module->mod, u->ip) || has_cfi(km->module->mod, u->ip))
		return PLT_NOT_HERE;
	if (!unwind_read_word(u, u->dwarf_regs[DWARF_RSP], &ra)) {
		if (u->want_learn || u->want_rebuild)
			return PLT_RESTART;
		u->read_failed = 0; /* the walks will meet the same read */
		return PLT_NOT_HERE;
	}
	res->frames[0] = (struct unwind_frame){ .pc = u->ip, .is_activation = 1 };
	res->nr_frames = 1;
	u->ip = ra;
	u->dwarf_regs[DWARF_RSP] += 8;
	u->after_plt = 1;
	return PLT_STEPPED;
}
