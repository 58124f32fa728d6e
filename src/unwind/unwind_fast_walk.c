/* unwind_fast_walk.c - the DWARF walk on cached CFI rows (cfi_row.h), the unwinder's fast
 * path; libdwfl's unwinder takes every sample it cannot finish. */
#include <string.h>

#include "unwind/unwind_internal.h"

/* The walk on cached CFI rows (cfi_row.h), doing what libdwfl's handle_cfi does for
 * such rows: same frames, same flags, same reads, so the same result — the oracle
 * tests check it against `unwind-dump --libdwfl-only`.  Any frame it cannot do (no FDE,
 * expressions, signal frames, an unknown CFA register, a pc in no mapping) hands the
 * whole sample to libdwfl. */
enum fast_walk_result unwind_fast_walk(struct unwinder *u)
{
	struct unwind_result *res = u->res;
	uint64_t regs[UNWIND_MAX_DWARF_REGS];
	uint32_t valid = u->dwarf_valid, next_valid;
	uint64_t pc = u->ip;

	memcpy(regs, u->dwarf_regs, sizeof(regs));
	for (;;) {
		struct unwind_known_map *km = NULL;
		const struct cfi_row *row;
		uint64_t lookup, cfa;

		if (res->nr_frames == res->max_frames) {
			unwinder_stop(u, UNWIND_MAX_FRAMES, pc);
			return FAST_DONE;
		}
		res->frames[res->nr_frames] = (struct unwind_frame){
			.pc = pc, .is_activation = res->nr_frames == 0,
		};
		lookup = res->nr_frames == 0 ? pc : pc - 1;
		res->nr_frames++;
		u->read_failed = 0;
		u->last_unmapped = 0;
		u->last_map = NULL;
		switch (unwind_space_lookup(&u->space, lookup, &km, &u->new_map)) {
		case SPACE_KNOWN:
			u->last_map = km;
			break;
		case SPACE_UNMAPPED:
			return FAST_LIBDWFL;
		case SPACE_NEW:
			u->want_learn = 1;
			return FAST_RESTART;
		case SPACE_CONTRADICTED:
			u->want_rebuild = 1;
			return FAST_RESTART;
		}
		if (unwinder_stop_at_unusable_file(u, km, lookup))
			return FAST_DONE;
		if (!km->module->mod)
			return FAST_LIBDWFL;
		row = cfi_row_for(&u->rows, km->module->mod, lookup, u->arch);
		if (!row || !(valid & (1u << row->cfa_reg)))
			return FAST_LIBDWFL;
		cfa = regs[row->cfa_reg] + row->cfa_off;
		/* registers the row keeps stay as they are (when known); only the saved and
		 * computed ones change, each from the CFA alone, so in place */
		next_valid = valid & row->same_mask;
		for (unsigned k = 0; k < row->nr_special; k++) {
			unsigned r = row->special[k];
			if (row->rule[r] == CFI_AT_CFA) {
				/* an unreadable slot leaves the register unknown, as in libdwfl */
				if (!unwinder_read_word_fast(u, cfa + row->off[r], &regs[r])) {
					if (u->want_learn || u->want_rebuild)
						return FAST_RESTART;
					continue;
				}
			} else {
				regs[r] = cfa + row->off[r];
			}
			next_valid |= 1u << r;
		}
		/* No return address (undefined, unreadable) or 0: libdwfl's outermost frame;
		 * the caller tells a finished walk from a cut one by read_failed. */
		if (!(next_valid & (1u << row->ra_reg)) || regs[row->ra_reg] == 0)
			return FAST_DONE;
		pc = regs[row->ra_reg];
		valid = next_valid;
	}
}

