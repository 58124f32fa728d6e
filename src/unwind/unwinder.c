/* unwinder.c - one libdwfl session per process, reused across samples.
 *
 * libdwfl unwinds a "thread" whose registers and memory come from callbacks.  We attach
 * those callbacks once (dwfl_attach_state) with the unwinder as their argument, and
 * point the unwinder at the current sample before each dwfl_getthread_frames().
 *
 * Modules are learnt while walking: when a frame's pc lies in a mapping we have not
 * seen, the walk is abandoned, the mapping's file is reported, and the sample is walked
 * again from the start.  That costs one extra walk per newly seen file of a process and
 * keeps the module list unchanged while libdwfl is inside a walk. */
#include "unwind/unwinder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "base/xalloc.h"
#include "unwind/unwind_debuginfo.h"
#include "unwind/unwind_internal.h"

/* Re-walks of one sample after learning a mapping or rebuilding the session. */
#define MAX_WALKS 24

static const char *const status_names[] = {
	[UNWIND_COMPLETE] = "complete",
	[UNWIND_STACK_CUT] = "stack cut short",
	[UNWIND_STACK_PARTIAL] = "stack partly copied",
	[UNWIND_NO_CFI] = "no CFI",
	[UNWIND_NO_FILE] = "object missing",
	[UNWIND_NO_MAP] = "no map",
	[UNWIND_BAD_MEMORY] = "bad memory read",
	[UNWIND_MAX_FRAMES] = "too many frames",
	[UNWIND_NO_REGS] = "no registers",
	[UNWIND_ERROR] = "unwind error",
};

const char *unwind_status_name(enum unwind_status s)
{
	if ((unsigned)s < sizeof(status_names) / sizeof(status_names[0]) && status_names[s])
		return status_names[s];
	return "?";
}

/* ---- libdwfl thread callbacks ---- */

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->sample && u->sample->tid ? (pid_t)u->sample->tid : 1;
}

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* One 64-bit word of the sampled process at ADDR: from the stack copy, else from a
 * read-only segment of a mapped file.  Returns 1 with *VALUE, or 0 — after noting a
 * failed read (for classify_failure), or asking for a mapping to be learnt or the
 * session rebuilt (then the walk is abandoned and made again). */
int unwinder_read_word(struct unwinder *u, uint64_t addr, uint64_t *value)
{
	struct unwind_known_map *km = NULL;
	struct unwind_map nm;

	if (unwinder_read_dump_word(u, addr, value))
		return 1;
	switch (unwind_space_lookup(&u->space, addr, &km, &nm)) {
	case SPACE_KNOWN:
		if (unwind_space_read_file_word(&u->space, km, addr, value))
			return 1;
		break;
	case SPACE_NEW:
		/* Learn the file behind it and walk again; the retry will find it known. */
		u->want_learn = 1;
		u->new_map = nm;
		return 0;
	case SPACE_CONTRADICTED:
		u->want_rebuild = 1;
		return 0;
	case SPACE_UNMAPPED:
		break;
	}
	u->read_failed = 1;
	u->read_addr = addr;
	u->read_was_stack = addr >= u->sp && addr - u->sp < STACK_REACH;
	u->lost_read = 1;
	u->lost_addr = addr;
	return 0;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	uint64_t word;

	(void)dwfl;
	if (!unwinder_read_word(arg, addr, &word))
		return false;
	*result = word;
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;

	for (unsigned i = 0; i < u->arch->nr_dwarf; i++) {
		Dwarf_Word v = u->dwarf_regs[i];

		if (!(u->dwarf_valid & (1u << i)))
			continue;
		/* A register the backend does not know is not worth failing the walk. */
		(void)dwfl_thread_state_registers(thread, (int)i, 1, &v);
	}
	dwfl_thread_state_register_pc(thread, u->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/* ---- session ---- */

static int session_start(struct unwinder *u)
{
	if (u->dwfl)
		return 0;
	u->dwfl = dwfl_begin(&u->dwfl_callbacks);
	if (!u->dwfl)
		return -1;
	u->space.dwfl = u->dwfl;
	if (!dwfl_attach_state(u->dwfl, u->arch_elf, 1, &thread_callbacks, u)) {
		dwfl_end(u->dwfl);
		u->dwfl = NULL;
		u->space.dwfl = NULL;
		return -1;
	}
	return 0;
}

static void session_end(struct unwinder *u)
{
	cfi_row_cache_clear(&u->rows); /* keyed by the modules that go now */
	unwind_space_clear(&u->space);
	if (u->dwfl)
		dwfl_end(u->dwfl);
	u->dwfl = NULL;
	u->space.dwfl = NULL;
}

struct unwinder *unwinder_new(const struct unwinder_options *opts,
			      struct tephra_error *err)
{
	struct unwinder *u;
	Elf64_Ehdr eh;

	if (!opts || !opts->find_map) {
		tephra_error_set(err, "dwarf unwinder: no map-lookup callback");
		return NULL;
	}
	u = xcalloc(1, sizeof(*u));
	u->opts = *opts;
	u->arch = unwind_arch_desc(opts->arch);
	if (!u->arch) {
		tephra_error_set(err, "dwarf unwinder: unsupported architecture %d", (int)opts->arch);
		free(u);
		return NULL;
	}
	u->dwfl_callbacks.find_elf = dwfl_build_id_find_elf;
	u->dwfl_callbacks.find_debuginfo = unwind_debuginfo_find;
	u->dwfl_callbacks.section_address = dwfl_offline_section_address;
	u->dwfl_callbacks.debuginfo_path = NULL; /* libdwfl's default search path */

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = u->arch->elf_machine;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	memcpy(u->arch_image, &eh, sizeof(eh));
	elf_version(EV_CURRENT);
	u->arch_elf = elf_memory((char *)u->arch_image, sizeof(u->arch_image));
	if (!u->arch_elf) {
		tephra_error_set(err, "dwarf unwinder: libelf: %s", elf_errmsg(-1));
		free(u);
		return NULL;
	}
	unwind_space_init(&u->space, &u->opts);
	cfi_row_cache_init(&u->rows);
	if (session_start(u) != 0) {
		tephra_error_set(err, "dwarf unwinder: libdwfl: %s", dwfl_errmsg(-1));
		unwind_space_release(&u->space);
		elf_end(u->arch_elf);
		free(u);
		return NULL;
	}
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	session_end(u);
	unwind_space_release(&u->space);
	elf_end(u->arch_elf);
	free(u);
}

void unwinder_forget_maps(struct unwinder *u)
{
	session_end(u);
}

size_t unwinder_nr_modules(const struct unwinder *u)
{
	size_t n = 0;

	for (size_t i = 0; i < u->space.nr_modules; i++)
		n += u->space.modules[i]->mod != NULL;
	return n;
}

const struct unwinder_stats *unwinder_stats(const struct unwinder *u)
{
	return &u->stats;
}

/* ---- one walk ---- */

void unwinder_stop(struct unwinder *u, enum unwind_status st, uint64_t addr)
{
	u->stopped = 1;
	u->res->status = st;
	u->res->addr = addr;
}

/* Notes the registers of frame STATE (lookup pc LOOKUP), the frame just recorded.  A
 * callee-saved register libdwfl lost on the way from the previous frame, whose CFI has
 * no rule for it, is put back with the previous frame's value, as the psABI says and as
 * the fast path's rows do (cfi_row.c); libdwfl goes on without it, and
 * resume_with_kept_registers() restarts it from this frame when that stopped the walk. */
static void note_frame_registers(struct unwinder *u, Dwfl_Frame *state, uint64_t lookup)
{
	uint64_t regs[UNWIND_MAX_DWARF_REGS];
	uint32_t valid = 0, lost;
	Dwfl_Module *prev_mod;

	for (unsigned r = 0; r < u->arch->nr_dwarf; r++) {
		Dwarf_Word v;

		if (dwfl_frame_reg(state, r, &v) == 0) {
			regs[r] = v;
			valid |= 1u << r;
		}
	}
	lost = u->res->nr_frames - 1 > u->first_dwfl_frame
		       ? u->arch->callee_saved & u->frame_valid & ~valid : 0;
	u->kept_mask = 0;
	prev_mod = lost ? dwfl_addrmodule(u->dwfl, u->frame_lookup) : NULL;
	for (unsigned r = 0; prev_mod && r < u->arch->nr_dwarf; r++) {
		if (!(lost & (1u << r)) || !cfi_reg_undefined_at(prev_mod, u->frame_lookup, r))
			continue;
		regs[r] = u->frame_regs[r];
		valid |= 1u << r;
		u->kept_mask |= 1u << r;
	}
	memcpy(u->frame_regs, regs, sizeof(regs));
	u->frame_valid = valid;
	u->frame_lookup = lookup;
}

/* Without the file, no CFI says where the frame's caller is, and libdwfl's fallback
 * (frame pointers on x86_64) takes whatever the register then holds for a frame chain:
 * non-canonical values and stack addresses printed as frames.  perf stops there too.
 * Anonymous maps ("//anon", JIT code: no file to miss) keep the fallback. */
int unwinder_stop_at_unusable_file(struct unwinder *u, const struct unwind_known_map *km,
				   uint64_t addr)
{
	const struct unwind_module *m = km->module;

	if (m->mod || m->path[0] != '/' || m->path[1] == '/')
		return 0;
	unwinder_stop(u, UNWIND_NO_FILE, addr);
	snprintf(u->res->object, sizeof(u->res->object), "%s: %s", m->path, m->why);
	return 1;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	struct unwind_result *res = u->res;
	Dwarf_Addr pc;
	bool activation;
	uint64_t lookup;
	struct unwind_known_map *km = NULL;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* A return address of 0 is how some outermost frames without CFI end. */
	if (pc == 0 && res->nr_frames > 0) {
		unwinder_stop(u, UNWIND_COMPLETE, 0);
		return DWARF_CB_ABORT;
	}
	if (res->nr_frames == res->max_frames) {
		unwinder_stop(u, UNWIND_MAX_FRAMES, pc);
		return DWARF_CB_ABORT;
	}
	/* Asking for the activation flag makes libdwfl unwind this frame already (to see
	 * whether its caller is a signal frame): reads from here on are this frame's, and
	 * they are those the fast path makes for a frame it keeps (so stack_used agrees). */
	u->read_failed = 0;
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* after a PLT step or a resume libdwfl's first frame is at a return address */
	if (u->first_dwfl_frame && res->nr_frames == u->first_dwfl_frame)
		activation = false;
	res->frames[res->nr_frames].pc = pc;
	res->frames[res->nr_frames].is_activation = activation;
	res->frames[res->nr_frames].after_signal = 0; /* see mark_signal_frames() */
	res->nr_frames++;
	u->last_unmapped = 0;
	u->last_map = NULL;

	lookup = activation ? pc : pc - 1;
	note_frame_registers(u, state, lookup);
	switch (unwind_space_lookup(&u->space, lookup, &km, &u->new_map)) {
	case SPACE_KNOWN:
		u->last_map = km;
		if (unwinder_stop_at_unusable_file(u, km, lookup))
			return DWARF_CB_ABORT;
		break;
	case SPACE_UNMAPPED:
		/* libdwfl may still step over it with the architecture's fallback. */
		u->last_unmapped = 1;
		break;
	case SPACE_NEW:
		u->want_learn = 1;
		return DWARF_CB_ABORT;
	case SPACE_CONTRADICTED:
		u->want_rebuild = 1;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* Does the CFI covering PC mark it as a signal trampoline ('S' augmentation)? */
static int is_signal_trampoline(struct unwinder *u, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, pc);
	Dwarf_CFI *cfis[2];
	Dwarf_Addr bias[2] = { 0, 0 };
	bool signal = false;

	if (!mod)
		return 0;
	cfis[0] = dwfl_module_eh_cfi(mod, &bias[0]);
	cfis[1] = cfis[0] ? NULL : dwfl_module_dwarf_cfi(mod, &bias[1]);
	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *frame = NULL;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], pc - bias[i], &frame) != 0)
			continue;
		dwarf_frame_info(frame, NULL, NULL, &signal);
		free(frame);
		break;
	}
	return signal;
}

/* libdwfl calls a frame an activation when it is the first, when a signal interrupted
 * it, and when it is the signal trampoline itself, and does not say which; perf prints
 * the two differently (unwind_frame_perf_pc).  A non-first activation whose previous
 * frame is a trampoline by its CFI is the interrupted one.  Only activations are
 * looked at: in most walks there are none past frame 0. */
static void mark_signal_frames(struct unwinder *u)
{
	struct unwind_result *res = u->res;

	for (size_t i = 1; i < res->nr_frames; i++)
		if (res->frames[i].is_activation)
			res->frames[i].after_signal =
				is_signal_trampoline(u, unwind_frame_lookup_pc(&res->frames[i - 1]));
}

/* Is PC (a lookup pc) in MOD's entry-point code: at or after the ELF entry point with
 * no CFI anywhere from there to PC?  The kernel jumps to the entry point with no return
 * address, so that code has no caller; ld.so's _start has no FDE at all (the
 * executable's _start marks its return address undefined instead, a complete walk), and
 * every walk through the dynamic linker's start-up ended there.  Probes byte by byte,
 * only for walks that found no CFI, and only within ENTRY_CODE bytes of the entry. */
#define ENTRY_CODE 256
static int in_entry_code(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Addr bias, cfi_bias[2] = { 0, 0 };
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Ehdr ehdr;

	if (!elf || !gelf_getehdr(elf, &ehdr) || !ehdr.e_entry)
		return 0;
	uint64_t entry = ehdr.e_entry + bias;
	if (pc < entry || pc - entry >= ENTRY_CODE)
		return 0;
	Dwarf_CFI *cfis[2] = { dwfl_module_eh_cfi(mod, &cfi_bias[0]),
			       dwfl_module_dwarf_cfi(mod, &cfi_bias[1]) };
	for (uint64_t a = entry; a <= pc; a++)
		for (int i = 0; i < 2; i++) {
			Dwarf_Frame *frame = NULL;

			if (cfis[i] && dwarf_cfi_addrframe(cfis[i], a - cfi_bias[i], &frame) == 0) {
				free(frame);
				return 0;
			}
		}
	return 1;
}

/* Why a walk ended without reaching an outermost frame. */
static void classify_failure(struct unwinder *u)
{
	struct unwind_result *res = u->res;
	uint64_t last = res->nr_frames ? res->frames[res->nr_frames - 1].pc : u->ip;

	/* read_was_stack implies read_addr >= sp: the subtraction cannot wrap */
	if (u->read_failed && u->read_was_stack &&
	    u->read_addr - u->sp + sizeof(uint64_t) > u->stack_avail) {
		/* The walk wanted stack beyond the copy: beyond a full dump, the dump was too
		 * small; beyond a short one (dyn_size < size), the kernel's copy stopped there
		 * (a page it could not read in the sampling interrupt), whatever the size. */
		unwinder_stop(u, u->stack_avail == u->sample->stack_size ? UNWIND_STACK_CUT
								      : UNWIND_STACK_PARTIAL,
			    u->read_addr);
		res->stack_needed = u->read_addr - u->sp + sizeof(uint64_t);
		return;
	}
	if (u->last_unmapped) {
		unwinder_stop(u, UNWIND_NO_MAP, last);
		return;
	}
	if (u->read_failed) {
		unwinder_stop(u, UNWIND_BAD_MEMORY, u->read_addr);
		return;
	}
	if (u->last_map) {
		const struct unwind_module *m = u->last_map->module;

		if (m->mod && res->nr_frames &&
		    in_entry_code(m->mod, unwind_frame_lookup_pc(&res->frames[res->nr_frames - 1]))) {
			unwinder_stop(u, UNWIND_COMPLETE, 0);
			return;
		}
		unwinder_stop(u, UNWIND_NO_CFI, last);
		snprintf(res->detail, sizeof(res->detail), "%s", dwfl_errmsg(-1));
		snprintf(res->object, sizeof(res->object), "%s%s%s", m->path,
			 m->mod ? "" : ": ", m->mod ? "" : m->why);
		return;
	}
	unwinder_stop(u, UNWIND_ERROR, last);
	snprintf(res->detail, sizeof(res->detail), "%s", dwfl_errmsg(-1));
}

/* libdwfl's walk ended at its last frame for want of a callee-saved register it lost and
 * note_frame_registers() put back (the register of that frame's CFA): walks again from
 * that frame, with its registers complete.  Returns 1 when it did (*RC: the new walk's
 * result), 0 when the walk ended otherwise.  In the new walk libdwfl looks that frame's
 * row up at its pc, not pc - 1, as after a PLT step. */
static int resume_with_kept_registers(struct unwinder *u, int *rc)
{
	struct unwind_result *res = u->res;
	size_t last = res->nr_frames - 1;
	Dwfl_Module *mod;
	int cfa_reg;

	if (u->stopped || u->want_learn || u->want_rebuild || u->read_failed || !u->kept_mask ||
	    res->nr_frames == 0 || last <= u->first_dwfl_frame)
		return 0;
	mod = dwfl_addrmodule(u->dwfl, u->frame_lookup);
	cfa_reg = mod ? cfi_cfa_reg_at(mod, u->frame_lookup) : -1;
	if (cfa_reg < 0 || !(u->kept_mask & (1u << cfa_reg)))
		return 0;
	memcpy(u->dwarf_regs, u->frame_regs, sizeof(u->dwarf_regs));
	u->dwarf_valid = u->frame_valid;
	u->ip = res->frames[last].pc;
	res->nr_frames = last;
	u->first_dwfl_frame = last;
	u->kept_mask = 0;
	u->last_unmapped = 0;
	u->last_map = NULL;
	*rc = dwfl_getthread_frames(u->dwfl, u->sample->tid ? (pid_t)u->sample->tid : 1,
				    frame_cb, u);
	return 1;
}

/* Did the walk end because the last frame's CFA register was lost: its CFI computes the
 * CFA from a register (as rbp + 16) that is unknown there, after a read that failed
 * earlier in the walk?  libdwfl then returns 0 as for an outermost frame, but the frame
 * has a caller.  glibc 2.36's msort_with_tmp ends in a tail jump to memcpy after
 * popping rbx..r15, and its CFI still has them saved at their slots, now below sp: the
 * kernel's copy of the stack starts at sp, so a sample there loses rbp, and its caller
 * qsort_r (CFA rbp + 16) has no CFA: perf stops there too, as a walk ending in qsort_r,
 * which is not a complete walk (tests/quality/roots-lost).  Only for walks libdwfl
 * ended (the fast path hands a frame with an unknown CFA register to libdwfl). */
static int cfa_register_lost(struct unwinder *u)
{
	struct unwind_result *res = u->res;
	Dwfl_Module *mod;
	int cfa_reg;

	/* frame_regs are those of libdwfl's last frame (note_frame_registers) */
	if (!u->lost_read || !u->dwfl || res->nr_frames == 0 ||
	    res->nr_frames <= u->first_dwfl_frame ||
	    u->frame_lookup != unwind_frame_lookup_pc(&res->frames[res->nr_frames - 1]))
		return 0;
	mod = dwfl_addrmodule(u->dwfl, u->frame_lookup);
	cfa_reg = mod ? cfi_cfa_reg_at(mod, u->frame_lookup) : -1;
	return cfa_reg >= 0 && !(u->frame_valid & (1u << cfa_reg));
}

static void walk_reset(struct unwinder *u)
{
	struct unwind_result *res = u->res;

	res->nr_frames = 0;
	res->status = UNWIND_COMPLETE;
	res->addr = 0;
	res->stack_needed = 0;
	res->stack_used = 0;
	res->object[0] = 0;
	res->detail[0] = 0;
	u->stopped = u->want_learn = u->want_rebuild = 0;
	u->read_failed = u->last_unmapped = 0;
	u->lost_read = 0;
	u->lost_addr = 0;
	u->last_map = NULL;
	u->first_dwfl_frame = 0;
	u->frame_valid = u->kept_mask = 0;
}

/* Starts one walk of the sample from its registers (REGS, IP): frame 0 stepped here
 * when it is a PLT stub without CFI.  Returns 0, or -1 when a mapping is to be learnt
 * or the session rebuilt first. */
static int walk_begin(struct unwinder *u, const uint64_t *regs, uint32_t valid, uint64_t ip)
{
	walk_reset(u);
	memcpy(u->dwarf_regs, regs, sizeof(u->dwarf_regs));
	u->dwarf_valid = valid;
	u->ip = ip;
	return unwind_plt_step(u) == PLT_RESTART ? -1 : 0;
}

size_t unwinder_walk(struct unwinder *u, const struct unwind_sample_regs *s,
		     struct unwind_result *res)
{
	int rc = 0;
	uint64_t regs0[UNWIND_MAX_DWARF_REGS], ip0;
	uint32_t valid0;
	int by_libdwfl = 0;

	u->res = res;
	u->sample = s;
	walk_reset(u);
	u->stats.nr_samples++;
	u->space.walk++;
	if (s->abi != 2 || unwind_regs_to_dwarf(u->arch, s->regs_mask, s->regs, u->dwarf_regs,
						&u->dwarf_valid, &u->sp, &u->ip) != 0) {
		res->status = UNWIND_NO_REGS;
		goto out;
	}
	u->stack_avail = s->stack ? (s->stack_dyn_size < s->stack_size ? s->stack_dyn_size
								    : s->stack_size)
				  : 0;
	if (res->max_frames == 0) {
		res->status = UNWIND_MAX_FRAMES;
		goto out;
	}

	memcpy(regs0, u->dwarf_regs, sizeof(regs0));
	valid0 = u->dwarf_valid;
	ip0 = u->ip;
	for (int walk = 0; walk < MAX_WALKS; walk++) {
		walk_reset(u);
		by_libdwfl = 0;
		if (session_start(u) != 0) {
			unwinder_stop(u, UNWIND_ERROR, u->ip);
			snprintf(res->detail, sizeof(res->detail), "%s", dwfl_errmsg(-1));
			goto out;
		}
		if (walk_begin(u, regs0, valid0, ip0) != 0)
			goto after_walk;
		if (!u->opts.libdwfl_only) {
			enum fast_walk_result fr = unwind_fast_walk(u);

			if (fr == FAST_DONE) {
				u->stats.nr_fast_walks++;
				rc = 0;
				break;
			}
			if (fr == FAST_LIBDWFL && walk_begin(u, regs0, valid0, ip0) != 0)
				goto after_walk;
		}
		if (!u->want_learn && !u->want_rebuild) {
			by_libdwfl = 1;
			rc = dwfl_getthread_frames(u->dwfl, s->tid ? (pid_t)s->tid : 1, frame_cb, u);
			/* each resume starts further on: bounded by max_frames */
			while (resume_with_kept_registers(u, &rc))
				;
		}
	after_walk:
		if (u->want_rebuild) {
			u->stats.nr_dwfl_rebuilds++;
			session_end(u);
			continue;
		}
		if (u->want_learn) {
			unwind_space_learn(&u->space, &u->new_map);
			continue;
		}
		break;
	}
	if (u->want_learn || u->want_rebuild) {
		/* Maps kept changing under us: keep what the last walk found. */
		unwinder_stop(u, UNWIND_ERROR, u->ip);
		snprintf(res->detail, sizeof(res->detail), "address space kept changing");
	} else if (!u->stopped && (rc != 0 || u->read_failed)) {
		/* libdwfl takes a return address it could not read for "undefined", i.e. an
		 * outermost frame, and returns 0: a failed read after the last frame says
		 * the walk was cut, not finished. */
		classify_failure(u);
	} else if (by_libdwfl && !u->stopped && cfa_register_lost(u)) {
		/* libdwfl also ends the walk, returning 0, when the last frame's CFA is
		 * computed from a register an earlier frame's unreadable slot left unknown */
		unwinder_stop(u, UNWIND_BAD_MEMORY, u->lost_addr);
	}
	if (u->dwfl)
		mark_signal_frames(u);
out:
	u->stats.nr_modules_reported = u->space.nr_reported;
	u->stats.nr_by_status[res->status]++;
	if (res->status == UNWIND_STACK_CUT && res->stack_needed > u->stats.max_stack_needed)
		u->stats.max_stack_needed = res->stack_needed;
	u->sample = NULL;
	u->res = NULL;
	return res->nr_frames;
}
