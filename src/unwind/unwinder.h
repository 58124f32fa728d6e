/* unwinder.h - turns a DWARF-mode sample (user registers + a copy of the user
 * stack) into the list of code addresses of its call stack, with elfutils' libdwfl.
 *
 * One struct unwinder per recorded process (one address space).  It keeps a
 * single Dwfl for the life of the process: each mapped ELF file is reported once, at
 * its load bias, the first time an unwind reaches one of its addresses, and its CFI
 * (.eh_frame, then .debug_frame from a debug file found by build-id or debuglink) is
 * parsed once and reused by every later sample.  Nothing is re-opened per sample.
 *
 * The caller describes the address space through a map-lookup callback (its machine
 * model: address -> mapped file); the unwinder asks it for each new address.  When a
 * lookup contradicts a module reported earlier (exec, munmap + mmap of another file at
 * the same place) the unwinder drops its modules and reports them again, so a caller
 * that keeps one unwinder per pid across exec still gets correct stacks.
 *
 * Memory reads during an unwind are served from the sample's stack copy for
 * [sp, sp + dyn_size), and from the mapped ELF file's bytes for addresses in a
 * read-only file-backed segment; anything else fails and ends the walk. */
#ifndef TEPHRA_UNWIND_UNWINDER_H
#define TEPHRA_UNWIND_UNWINDER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

enum unwind_arch {
	UNWIND_ARCH_X86_64,
	UNWIND_ARCH_AARCH64,
};

/* Maps the perf.data ARCH feature ("x86_64", "aarch64"; also "arm64") to an arch.
 * Returns 0, or -1 when the architecture is not supported. */
int unwind_arch_from_name(const char *name, enum unwind_arch *arch);

/* One mapping of the recorded process, as the caller's machine model knows it. */
struct unwind_map {
	const char *path;          /* the mapped file as recorded (MMAP2 filename) */
	uint64_t start, end;       /* [start, end) in the process */
	uint64_t pgoff;            /* file offset mapped at START */
	const uint8_t *build_id;   /* may be NULL */
	size_t build_id_size;
	const char *proc_root;     /* "/proc/PID/root" where the process's own file is
				    * (debug_paths.h), or NULL */
};

/* Returns 1 and fills MAP when ADDR is inside a mapping, 0 otherwise.  Strings and
 * bytes in MAP need only stay valid until the next call. */
typedef int (*unwind_find_map_fn)(void *arg, uint64_t addr, struct unwind_map *map);

struct unwinder_options {
	enum unwind_arch arch;
	unwind_find_map_fn find_map;
	void *find_map_arg;
	const char *buildid_dir; /* perf's build-id cache; NULL = $HOME/.debug */
	const char *root_dir;    /* prefix for object paths (perf --symfs); NULL = none.
				  * As for symbols (debug_paths.h), it also moves the
				  * build-id cache to ROOT/.debug. */
	int root_flat;           /* with root_dir: ROOT/basename (perf's symfs ",flat") */
	int libdwfl_only;        /* no fast path: every frame through libdwfl's unwinder
				    (same results, slower; for tests and comparisons) */
};

struct unwinder;

/* Returns a new unwinder, or NULL with ERR. */
struct unwinder *unwinder_new(const struct unwinder_options *opts,
			      struct tephra_error *err);
void unwinder_free(struct unwinder *u);

/* Forget every reported module (call on exec when convenient; the unwinder also
 * notices contradicting maps by itself). */
void unwinder_forget_maps(struct unwinder *u);

/* The user-space state captured with one sample (PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER). */
struct unwind_sample_regs {
	uint32_t tid;
	uint64_t abi;          /* perf's user_regs_abi: 0 none, 1 32-bit, 2 64-bit */
	uint64_t regs_mask;    /* attr.sample_regs_user, in perf's register numbering */
	const uint64_t *regs;  /* popcount(regs_mask) values, lowest bit first */
	const uint8_t *stack;  /* the copy of the stack, starting at the sampled sp */
	uint64_t stack_size;   /* bytes of the copy in the record (the requested dump size) */
	uint64_t stack_dyn_size; /* bytes of it that are valid (<= stack_size) */
};

enum unwind_status {
	UNWIND_COMPLETE,     /* reached the outermost frame (CFI says: no caller; or the
				entry point's code, which has none) */
	UNWIND_STACK_CUT,    /* wanted stack memory beyond the full dump (see stack_needed) */
	UNWIND_STACK_PARTIAL, /* wanted stack memory the kernel did not copy: the dump is
				 shorter than requested (dyn_size < size: the copy met a page
				 it could not read), and a larger dump would not help */
	UNWIND_NO_CFI,       /* no usable CFI for the pc at `addr` in `object` */
	UNWIND_NO_FILE,      /* the pc at `addr` lies in `object` ("path: why"), a mapped
				file that could not be used (missing, another build-id): the
				walk ends at that frame, nothing guessed beyond it */
	UNWIND_NO_MAP,       /* a pc (`addr`) that no mapping covers */
	UNWIND_BAD_MEMORY,   /* the CFI asked for memory that is neither stack nor a file
				(or, below sp, not in the copy: `addr`), and the walk could
				not go on without it */
	UNWIND_MAX_FRAMES,   /* the caller's frame buffer filled up */
	UNWIND_NO_REGS,      /* the sample lacks sp or ip, or has a 32-bit register set */
	UNWIND_ERROR,        /* libdwfl failed otherwise (message in `detail`) */
};

/* What unwind_status says in a few words ("complete", "stack cut short", ...). */
const char *unwind_status_name(enum unwind_status s);

struct unwind_frame {
	uint64_t pc;        /* the sampled ip for frame 0, return addresses after it */
	int is_activation;  /* libdwfl's flag (dwfl_frame_pc).  1: look up pc itself — frame
			       0, a frame a signal interrupted, and the signal trampoline
			       frame (its caller is a signal frame).  0: pc is a return
			       address: look up pc - 1 (the call) */
	int after_signal;   /* 1: a signal interrupted this frame (the frame before it is
			       the signal trampoline): pc is where it stopped */
};

/* The address to symbolize for FRAME: pc, or pc - 1 for a return address. */
static inline uint64_t unwind_frame_lookup_pc(const struct unwind_frame *f)
{
	return f->is_activation ? f->pc : f->pc - 1;
}

/* The address `perf script` prints for frame INDEX of a DWARF-mode walk: perf takes
 * one off every frame except the first and those a signal interrupted — the signal
 * trampoline's frame included, where libdwfl says "activation" (observed with perf
 * 6.1: a handler's return into __restore_rt prints as __restore_rt - 1, [unknown]). */
static inline uint64_t unwind_frame_perf_pc(const struct unwind_frame *f, size_t index)
{
	return index == 0 || f->after_signal ? f->pc : f->pc - 1;
}

struct unwind_result {
	struct unwind_frame *frames; /* caller's buffer */
	size_t max_frames;           /* its capacity */
	size_t nr_frames;            /* frames filled in (partial stacks are kept) */
	enum unwind_status status;
	uint64_t addr;           /* NO_CFI / NO_MAP: the pc; BAD_MEMORY: the address read */
	uint64_t stack_needed;   /* STACK_CUT, STACK_PARTIAL: the dump size that the failing
				    read needed (bytes from sp); a lower bound for the walk */
	uint64_t stack_used;     /* bytes from sp to the end of the highest word the walk
				    read from the dump; equal to the valid dump size when it
				    read the dump's last word, which perf 6.1 never reads
				    (docs/unwind.md) */
	char object[256];        /* NO_CFI: the object's path */
	char detail[128];        /* ERROR: libdwfl's message */
};

/* Unwinds one sample into RES (frames[] and max_frames set by the caller).  Returns
 * the number of frames; RES->status says why the walk stopped. */
size_t unwinder_walk(struct unwinder *u, const struct unwind_sample_regs *s,
		     struct unwind_result *res);

/* Modules the unwinder holds now.  Each keeps its file open (libdwfl holds the fd), so
 * owners of many unwinders bound their total (sample_unwind.c evicts idle processes). */
size_t unwinder_nr_modules(const struct unwinder *u);

/* Counters for the stack-quality report and benchmarks. */
struct unwinder_stats {
	uint64_t nr_samples;
	uint64_t nr_by_status[UNWIND_ERROR + 1];
	uint64_t nr_modules_reported;
	uint64_t nr_dwfl_rebuilds; /* maps that contradicted reported modules */
	uint64_t max_stack_needed; /* largest stack_needed seen */
	uint64_t nr_fast_walks;    /* samples walked on cached CFI rows alone */
};
const struct unwinder_stats *unwinder_stats(const struct unwinder *u);

#endif
