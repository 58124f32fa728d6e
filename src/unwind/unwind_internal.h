/* unwind_internal.h - the unwinder's state, shared by unwinder.c (sessions,
 * libdwfl walks, outcome) and unwind_fast_walk.c (walks on cached CFI rows).  Internal to
 * src/unwind. */
#ifndef TEPHRA_UNWIND_UNWIND_INTERNAL_H
#define TEPHRA_UNWIND_UNWIND_INTERNAL_H

#include <elf.h>
#include <stdint.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "unwind/cfi_row.h"
#include "unwind/unwinder.h"
#include "unwind/unwind_regs.h"
#include "unwind/unwind_space.h"

/* Beyond this distance above sp an address is no longer taken for stack memory. */
#define STACK_REACH (8u << 20)

struct unwinder {
	struct unwinder_options opts;
	const struct unwind_arch_desc *arch;
	Dwfl_Callbacks dwfl_callbacks;
	Dwfl *dwfl;
	/* An ELF header alone, so libdwfl picks the backend (registers, fallback unwinder)
	 * of the recorded architecture before any module is reported. */
	unsigned char arch_image[sizeof(Elf64_Ehdr)];
	Elf *arch_elf;
	struct unwind_space space;
	struct cfi_row_cache rows;   /* the fast path's decoded CFI rows */
	struct unwinder_stats stats;

	/* The walk in progress. */
	const struct unwind_sample_regs *sample;
	uint64_t dwarf_regs[UNWIND_MAX_DWARF_REGS];
	uint32_t dwarf_valid;
	uint64_t sp, ip;
	uint64_t stack_avail;
	struct unwind_result *res;
	int stopped;              /* the frame callback decided the status itself */
	int want_learn;           /* abandon the walk: learn new_map, then walk again */
	int want_rebuild;         /* abandon the walk: maps changed, new session */
	struct unwind_map new_map;
	/* the last memory read that failed since the last frame */
	int read_failed;
	uint64_t read_addr;
	int read_was_stack;       /* inside the stack's reach but not wholly in the dump */
	/* the last memory read that failed anywhere in the walk (a register left unknown) */
	int lost_read;
	uint64_t lost_addr;
	/* where the last frame's lookup pc stands */
	int last_unmapped;
	struct unwind_known_map *last_map;
	/* The index of the first frame libdwfl's walk gives: 0, or 1 when frame 0 was a PLT
	 * stub without CFI stepped by unwind_plt_step.c, or further on when the walk was
	 * resumed from a frame (resume_with_kept_registers); a first frame past 0 is a
	 * return address, not an activation. */
	size_t first_dwfl_frame;
	/* The registers of the last frame libdwfl gave, with the callee-saved ones it lost
	 * where the previous frame's CFI has no rule for them put back (kept_mask): libdw's
	 * default rules for x86_64 lose rbx (unwind_regs.h, callee_saved). */
	uint64_t frame_regs[UNWIND_MAX_DWARF_REGS];
	uint32_t frame_valid, kept_mask;
	uint64_t frame_lookup;    /* that frame's lookup pc */
};

/* One 64-bit word of the sampled process at ADDR (see unwinder.c). */
int unwinder_read_word(struct unwinder *u, uint64_t addr, uint64_t *value);

/* The word at ADDR when it lies wholly in the sample's stack copy (1, noting how far
 * into the dump the walk has read), else 0. */
static inline int unwinder_read_dump_word(struct unwinder *u, uint64_t addr,
					uint64_t *value)
{
	uint64_t end;

	if (addr < u->sp || addr - u->sp > u->stack_avail ||
	    u->stack_avail - (addr - u->sp) < sizeof(*value))
		return 0;
	memcpy(value, u->sample->stack + (addr - u->sp), sizeof(*value));
	end = addr - u->sp + sizeof(*value);
	if (end > u->res->stack_used)
		u->res->stack_used = end;
	return 1;
}

/* unwinder_read_word, inline where the word lies in the sample's stack copy (most
 * reads of a walk): the call is a noticeable share of a deep walk. */
static inline int unwinder_read_word_fast(struct unwinder *u, uint64_t addr,
					  uint64_t *value)
{
	return unwinder_read_dump_word(u, addr, value) || unwinder_read_word(u, addr, value);
}

/* Ends the walk with status ST (the frame callback or the fast path decided it). */
void unwinder_stop(struct unwinder *u, enum unwind_status st, uint64_t addr);

/* When the frame just recorded (at lookup pc ADDR) lies in a mapped file the unwinder
 * could not use (missing, another build-id, not ELF), ends the walk there as
 * UNWIND_NO_FILE naming the file and why, and returns 1; else 0. */
int unwinder_stop_at_unusable_file(struct unwinder *u, const struct unwind_known_map *km,
				   uint64_t addr);

enum fast_walk_result {
	FAST_DONE,     /* the walk ended (unwinder_stop called, or outermost / unreadable RA) */
	FAST_LIBDWFL,  /* a frame needs libdwfl: walk this sample with it instead */
	FAST_RESTART,  /* a mapping to learn or a session to rebuild (want_*) */
};

/* Walks the current sample on cached CFI rows (unwind_fast_walk.c). */
enum fast_walk_result unwind_fast_walk(struct unwinder *u);

enum plt_step_result {
	PLT_NOT_HERE,  /* frame 0 is not a PLT stub without CFI: walk as usual */
	PLT_STEPPED,   /* frame 0 recorded; ip and sp are now the caller's */
	PLT_RESTART,   /* a mapping to learn or a session to rebuild (want_*) */
};

/* Steps over frame 0 when it is a PLT stub that has no CFI (unwind_plt_step.c). */
enum plt_step_result unwind_plt_step(struct unwinder *u);

#endif
