/* unwind_plt_step.c - the first frame of a sample taken inside a PLT stub that has no CFI.
 *
 * lld writes no .eh_frame for its .plt on any architecture; GNU ld writes one on x86_64
 * but none on aarch64 (docs/unwind.md).  A sample whose pc is such a stub has no FDE for
 * frame 0: libdwfl falls back to the architecture's frame-pointer unwinder, which goes
 * wrong (x86_64 under -fomit-frame-pointer: "bad memory read" after one frame; aarch64:
 * the caller's pc from x30 but its sp, x29 and x30 from a frame record at x29, so the
 * walk stops after the caller or goes on from a wrong frame), while `perf script` shows
 * the caller.  A PLT stub only jumps, so the caller is known without CFI:
 *   x86_64:  the return address its caller pushed is still at [rsp]: caller's pc = [rsp],
 *            caller's sp = rsp + 8;
 *   aarch64: the `bl` left the return address in x30 and the stub (adrp/ldr/add/br x17)
 *            touches neither sp, x29 nor x30: caller's pc = x30, same sp, same registers;
 *            except past the lazy-binding header's `stp x16, x30, [sp, #-16]!`, where
 *            the caller's sp is sp + 16.
 * We take that step ourselves and let the walk go on from the caller. */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind_internal.h"

#define X86_64_DWARF_RSP 7
#define AARCH64_DWARF_X30 30
#define AARCH64_DWARF_SP 31

/* A64 instruction words of the PLT header (GNU ld and lld write the same ones). */
#define A64_BTI_C 0xd503245fu              /* bti c (a BTI-enabled header starts with it) */
#define A64_STP_X16_X30_PUSH 0xa9bf7bf0u   /* stp x16, x30, [sp, #-16]! */
#define A64_BR_X17 0xd61f0220u             /* br x17 */
/* The header's longest run from the push to its br x17. */
#define A64_PLT_HEADER_MAX_INSNS 8

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

/* The PLT section of MOD's file that holds PC: its section, header and name, or NULL. */
static Elf_Scn *plt_section_at(Dwfl_Module *mod, uint64_t pc, GElf_Shdr *sh_out,
			       const char **name_out)
{
	Dwarf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr *sh = gelf_getshdr(scn, sh_out);
		const char *name;

		if (!sh || sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR))
			continue;
		if (pc - bias < sh->sh_addr || pc - bias - sh->sh_addr >= sh->sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (!is_plt_section(name))
			return NULL;
		*name_out = name;
		return scn;
	}
	return NULL;
}

/* Instruction word I of section SCN (little-endian A64), or 0 when it is not there. */
static uint32_t a64_insn(Elf_Scn *scn, size_t i)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	const unsigned char *b;

	if (!d || !d->d_buf || d->d_size < 4 || i > (d->d_size - 4) / 4)
		return 0;
	b = (const unsigned char *)d->d_buf + i * 4;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* How far below the caller's sp the stub at byte offset OFF of .plt (SCN) has moved
 * sp: 16 between the lazy-binding header's push of x16/x30 and its br x17 (that
 * instruction included: it has not run yet when the pc is on it), else 0.  The header
 * is recognised by its words, so a .plt without one (-z now with lld, BTI variants)
 * is taken as plain stubs. */
static uint64_t a64_plt_pushed(Elf_Scn *scn, uint64_t off)
{
	size_t push = a64_insn(scn, 0) == A64_BTI_C ? 1 : 0;

	if (a64_insn(scn, push) != A64_STP_X16_X30_PUSH || off <= push * 4)
		return 0;
	for (size_t i = push + 1; i <= push + A64_PLT_HEADER_MAX_INSNS; i++) {
		if (off <= i * 4)
			return 16;
		if (a64_insn(scn, i) == A64_BR_X17)
			return 0; /* past the header's last instruction */
	}
	return 0;
}

/* x86_64: the caller's pc is the return address at [rsp], its rsp is 8 higher. */
static enum plt_step_result step_x86_64(struct unwinder *u)
{
	uint64_t ra;

	if (!(u->dwarf_valid & (1u << X86_64_DWARF_RSP)))
		return PLT_NOT_HERE;
	if (!unwinder_read_word(u, u->dwarf_regs[X86_64_DWARF_RSP], &ra)) {
		if (u->want_learn || u->want_rebuild)
			return PLT_RESTART;
		u->read_failed = 0; /* the walks will meet the same read */
		return PLT_NOT_HERE;
	}
	u->ip = ra;
	u->dwarf_regs[X86_64_DWARF_RSP] += 8;
	return PLT_STEPPED;
}

/* aarch64: the caller's pc is x30; its sp is sp, or sp + 16 inside the header after
 * the push.  The other registers are the caller's as they are. */
static enum plt_step_result step_aarch64(struct unwinder *u, Dwfl_Module *mod,
					 Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
	const uint32_t need = 1u << AARCH64_DWARF_X30 | 1u << AARCH64_DWARF_SP;
	Dwarf_Addr bias = 0;

	if ((u->dwarf_valid & need) != need || u->dwarf_regs[AARCH64_DWARF_X30] == 0)
		return PLT_NOT_HERE;
	if (!strcmp(name, ".plt")) {
		(void)dwfl_module_getelf(mod, &bias);
		u->dwarf_regs[AARCH64_DWARF_SP] += a64_plt_pushed(scn, u->ip - bias - sh->sh_addr);
	}
	u->ip = u->dwarf_regs[AARCH64_DWARF_X30];
	return PLT_STEPPED;
}

enum plt_step_result unwind_plt_step(struct unwinder *u)
{
	struct unwind_result *res = u->res;
	struct unwind_known_map *km = NULL;
	uint64_t pc = u->ip;
	enum plt_step_result r;
	Dwfl_Module *mod;
	Elf_Scn *scn;
	GElf_Shdr sh;
	const char *name = NULL;

	if ((u->arch->elf_machine != EM_X86_64 && u->arch->elf_machine != EM_AARCH64) ||
	    res->nr_frames != 0 || res->max_frames < 2)
		return PLT_NOT_HERE;
	switch (unwind_space_lookup(&u->space, pc, &km, &u->new_map)) {
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
	mod = km->module->mod;
	/* almost every sample: the fast path's cached CFI row says there is CFI here */
	if (mod && cfi_row_for(&u->rows, mod, pc, u->arch))
		return PLT_NOT_HERE;
	if (!mod || !(scn = plt_section_at(mod, pc, &sh, &name)) || has_cfi(mod, pc))
		return PLT_NOT_HERE;
	r = u->arch->elf_machine == EM_X86_64 ? step_x86_64(u)
					      : step_aarch64(u, mod, scn, &sh, name);
	if (r != PLT_STEPPED)
		return r;
	res->frames[0] = (struct unwind_frame){ .pc = pc, .is_activation = 1 };
	res->nr_frames = 1;
	u->first_dwfl_frame = 1;
	return PLT_STEPPED;
}
