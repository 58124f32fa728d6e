/* cfi_row.c - decoded CFI rows cached per (module, pc) (see cfi_row.h). */
#include "unwind/cfi_row.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Beyond this many rows (about 300 bytes each) the cache starts again: a bound on memory
 * per process that a profile seldom reaches (it is the number of distinct sampled and
 * return pcs of one process). */
#define MAX_ROWS (1u << 17)

/* Its own table, not base/hashmap: looked up for every frame of every DWARF sample, and
 * a slot holding the key itself (no entry, no key copy to reach) is cheaper.  Measured
 * with the map (find_hashed inline, the same mix of module and pc): tephra fold of the
 * perf-dwarf bench recording ran 2.0% more instructions (1,113 M -> 1,136 M, cachegrind),
 * tephra script 1.1% more. */
struct cfi_row_slot {
	Dwfl_Module *mod;       /* NULL: empty slot */
	uint64_t pc;
	struct cfi_row *row;    /* NULL: libdwfl only */
};

void cfi_row_cache_init(struct cfi_row_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void cfi_row_cache_clear(struct cfi_row_cache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		free(c->slots[i].row);
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

static size_t slot_of(const struct cfi_row_slot *slots, size_t cap, const Dwfl_Module *mod,
		      uint64_t pc)
{
	uint64_t h = (pc ^ (uint64_t)(uintptr_t)mod) * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 32) & (cap - 1);

	while (slots[i].mod && (slots[i].mod != mod || slots[i].pc != pc))
		i = (i + 1) & (cap - 1);
	return i;
}

/* Decodes FRAME into ROW; returns 0, or -1 when it is not one of the simple forms. */
static int decode_row(Dwarf_Frame *frame, const struct unwind_arch_desc *arch,
		      struct cfi_row *row)
{
	const unsigned nregs = arch->nr_dwarf;
	Dwarf_Op *ops;
	size_t nops;
	bool signal = false;
	int ra = dwarf_frame_info(frame, NULL, NULL, &signal);

	/* A signal frame's caller is an interrupted state, not a call: libdwfl's business. */
	if (ra < 0 || (unsigned)ra >= nregs || signal)
		return -1;
	row->ra_reg = (unsigned)ra;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1 || ops[0].atom != DW_OP_bregx ||
	    ops[0].number >= nregs)
		return -1;
	row->cfa_reg = (unsigned)ops[0].number;
	row->cfa_off = ops[0].number2;
	for (unsigned r = 0; r < nregs; r++) {
		Dwarf_Op mem[3];

		if (dwarf_frame_register(frame, (int)r, mem, &ops, &nops) != 0)
			return -1;
		row->off[r] = 0;
		if (nops == 0) {
			row->rule[r] = ops == mem ? CFI_UNDEFINED : CFI_SAME;
			if (ops && ops != mem)
				return -1;
			/* libdw cannot tell "no rule" from DW_CFA_undefined: a callee-saved
			 * register (never the return address) is taken as kept, as the psABI
			 * says of a function that does not save it */
			if (row->rule[r] == CFI_UNDEFINED && r != row->ra_reg &&
			    (arch->callee_saved & (1u << r)))
				row->rule[r] = CFI_SAME;
			continue;
		}
		if (ops[0].atom != DW_OP_call_frame_cfa)
			return -1;
		/* [cfa], [cfa, plus_uconst N]: a memory location; the same ending in
		 * stack_value: a value */
		size_t i = 1;
		if (i < nops && ops[i].atom == DW_OP_plus_uconst)
			row->off[r] = ops[i++].number;
		if (i == nops)
			row->rule[r] = CFI_AT_CFA;
		else if (i + 1 == nops && ops[i].atom == DW_OP_stack_value)
			row->rule[r] = CFI_VAL_CFA;
		else
			return -1;
	}
	row->same_mask = 0;
	row->nr_special = 0;
	for (unsigned r = 0; r < nregs; r++) {
		if (row->rule[r] == CFI_SAME)
			row->same_mask |= 1u << r;
		else if (row->rule[r] != CFI_UNDEFINED)
			row->special[row->nr_special++] = (uint8_t)r;
	}
	return 0;
}

/* libdw's frame (CFI row) for process address PC in MOD, or NULL; free() it. */
static Dwarf_Frame *frame_at(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame = NULL;

	/* libdwfl's order: .eh_frame, then .debug_frame */
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) {
		frame = NULL;
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			return NULL;
	}
	return frame;
}

int cfi_reg_undefined_at(Dwfl_Module *mod, uint64_t pc, unsigned reg)
{
	Dwarf_Frame *frame = frame_at(mod, pc);
	Dwarf_Op mem[3], *ops;
	size_t nops;
	int undefined;

	if (!frame)
		return 0;
	undefined = dwarf_frame_register(frame, (int)reg, mem, &ops, &nops) == 0 && nops == 0 &&
		    ops == mem;
	free(frame);
	return undefined;
}

int cfi_cfa_reg_at(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Frame *frame = frame_at(mod, pc);
	Dwarf_Op *ops;
	size_t nops;
	int reg = -1;

	if (!frame)
		return -1;
	if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 && ops[0].atom == DW_OP_bregx &&
	    ops[0].number < UNWIND_MAX_DWARF_REGS)
		reg = (int)ops[0].number;
	free(frame);
	return reg;
}

static struct cfi_row *lookup_row(Dwfl_Module *mod, uint64_t pc,
				  const struct unwind_arch_desc *arch)
{
	Dwarf_Frame *frame = frame_at(mod, pc);
	struct cfi_row *row;

	if (!frame)
		return NULL;
	row = xmalloc(sizeof(*row));
	if (decode_row(frame, arch, row) != 0) {
		free(row);
		row = NULL;
	}
	free(frame);
	return row;
}

const struct cfi_row *cfi_row_for(struct cfi_row_cache *c, Dwfl_Module *mod, uint64_t pc,
				  const struct unwind_arch_desc *arch)
{
	size_t i;

	if (2 * (c->nr + 1) > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1024;
		struct cfi_row_slot *slots;

		if (c->nr + 1 > MAX_ROWS) {
			cfi_row_cache_clear(c);
			cap = 1024;
		}
		slots = xcalloc(cap, sizeof(*slots));
		for (size_t j = 0; j < c->cap; j++)
			if (c->slots[j].mod)
				slots[slot_of(slots, cap, c->slots[j].mod, c->slots[j].pc)] = c->slots[j];
		free(c->slots);
		c->slots = slots;
		c->cap = cap;
	}
	i = slot_of(c->slots, c->cap, mod, pc);
	if (!c->slots[i].mod) {
		c->slots[i].mod = mod;
		c->slots[i].pc = pc;
		c->slots[i].row = lookup_row(mod, pc, arch);
		c->nr++;
	}
	return c->slots[i].row;
}
