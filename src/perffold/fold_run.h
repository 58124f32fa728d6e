/* fold_run.h - the state of one fold (perf_fold.c), shared with its off-CPU part
 * (perf_fold_offcpu.c).  Private to src/perffold/. */
#ifndef TEPHRA_PERFFOLD_FOLD_RUN_H
#define TEPHRA_PERFFOLD_FOLD_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "perffold/fold_pending.h"
#include "perffold/fold_roots.h"
#include "perffold/perf_fold.h"
#include "session/perf_session.h"

struct offcpu;

#define FRAME_UNWOUND (1ULL << 63) /* in a frame key's object word: unwound from DWARF */

struct fold_run {
	const struct perf_fold_options *o;
	size_t max_stack;
	struct frame *frames;
	uint64_t *key;           /* raw key: [root id, maps versions, kind, nr, addresses...] */
	uint64_t *addr_key;      /* resolved: [(obj id + 1, addr) per frame, outermost first] */
	int have_event;          /* the event to fold is decided */
	int ip_leaf;             /* raw_key: this sample's chain has no address, its ip is its
				  * frame (resolve_sample) */
	size_t event_index;
	struct fold_roots roots;
	uint64_t root;           /* the current sample's root id */
	struct hashmap stacks;   /* raw key → summed weight */
	uint32_t *stack_ids;     /* per raw key: offset of its folded frame ids in frame_ids */
	uint32_t *stack_lens;    /* ... and their number */
	uint32_t *stack_class;   /* ... and their stack_quality class (when quality;
				  * CLASS_PENDING while the stack waits to be named) */
	uint64_t *stack_samples; /* ... and, while CLASS_PENDING, its samples so far */
	uint64_t *stack_count;   /* ... and its samples (when o->samples or o->export) */
	struct stack_quality *quality; /* NULL: not reported */
	size_t cap_stacks;
	struct hashmap names;    /* {obj id + 1, addr, java} → index into name_frames */
	uint32_t *name_frames;   /* per name: offset into frame_ids */
	uint32_t *name_counts;
	struct printed_frame *name_printed; /* per name: how perf script prints the frame
					     * (for the quality block) */
	uint32_t *key_names;     /* per frame of the stack being named: its name */
	struct printed_frame *printed; /* ... and how it prints, callee first */
	uint32_t *frame_ids;     /* fold_table frame ids, concatenated */
	size_t nr_frame_ids, cap_frame_ids, cap_names;
	uint32_t *root_frames;   /* per root id: its fold_table frame id */
	size_t cap_roots;
	struct fold_table *table;
	struct perf_session *session;
	struct strbuf sb, text;
	size_t cap_chain;
	/* perf_foreach_stack */
	const struct stack_sink *sink;
	const char **cb_frames;
	size_t cap_cb_frames;
	uint32_t *cb_ids;
	size_t cap_cb_ids;
	/* perf_fold_file names (and classifies, for the quality block) new stacks later
	 * while symbols are still being loaded on other threads (symbol_store_loading:
	 * the kernel's, and the objects and inline chains of new frames it hands to the
	 * store's worker), so that reading records overlaps that (the stacks waiting:
	 * pending). */
	int defer_names;
	int demangle_full;       /* default names: symbols are read mangled and demangled
				  * here with their parameter lists */
	uint64_t *prefetched;    /* prefetch_objects' filter (PREFETCH_FILTER tags) */
	struct fold_pending pending;
	/* o->export: per stack its sample count; the roots told to the sink so far */
	uint32_t threads_told;
	/* o->export on a recording whose frames are all named without DWARF (nothing to
	 * unwind, no --inline, no off-CPU): the sink's frames and stacks are logged in
	 * order while reading and told after it (fold_run_export_after_reading),
	 * once the raw-stack tables are freed, so that the DWARF the source lines need
	 * is loaded only then and the two peaks do not add up */
	int defer_export;
	uint32_t *export_log;        /* EXPORT_LOG_* records */
	size_t nr_export_log, cap_export_log;
	/* o->off_cpu / o->wall: the switch tracker and the sched_switch event's index */
	struct offcpu *offcpu;
	size_t switch_index;
	uint64_t switch_undecoded;   /* sched_switch samples whose fields did not read */
	uint32_t *stack_state;       /* per raw key: 1 + its off-CPU state (o->wall), 0: on-CPU */
	uint32_t cur_state;          /* ... of the sample being keyed */
	struct sample_time_range *times; /* --time's ranges (o->off_cpu / o->wall) */
	size_t nr_times;
};

/* The name slot of KEY ({object word, address, java}; other tags for names that are no
 * frame of a sample) in r->names, its arrays grown; *CREATED when new. */
size_t fold_run_name_slot(struct fold_run *r, const uint64_t key[3], int *created);

/* Appends to OUT the folded name of symbol SYM (NULL: unknown) at ADDR in OBJ as a frame
 * without inline information is named (what fold_exact_frame adds): FRAME_FLAGS (e.g.
 * FOLD_INLINED) and the run's naming flags but --inline's. */
struct map_object;
struct strbuf;
void fold_run_name_symbol(struct fold_run *r, struct strbuf *out, const char *sym,
			  const struct map_object *obj, uint64_t addr, int java,
			  unsigned frame_flags);

/* tephra's default names for a frame perf expands: the functions at ADDR in D as the
 * DWARF nests them (dso_function_chain, llvm-symbolizer's answer), innermost first,
 * the outermost named SYM (the ELF symbol at ADDR, by perf's rules) when not NULL;
 * INLINED 0 only for the outermost.  Returns C->n (0: no DWARF function there). */
struct dso;
struct fold_chain {
	size_t n;
	const char **names; /* NULL where DWARF names none */
	unsigned char *inlined;
	const char **srclines;
};
size_t fold_chain_read(struct fold_chain *c, struct dso *d, uint64_t addr, const char *sym);
void fold_chain_release(struct fold_chain *c);

/* Whether frame I of ADDR_KEY[0..2N) (outermost first) is a return address: its callee
 * is a user frame (the first user frame under kernel ones is where the thread was
 * interrupted, as is the leaf). */
int fold_run_returns_to(struct fold_run *r, const uint64_t *addr_key, size_t n, size_t i);

/* The raw-key entry of a sample to fold into *I (named when new); 0 when the sample is
 * not folded (another event, a dropped root). */
int fold_run_stack_of(struct fold_run *r, const struct perf_session_sample *ps, size_t *i);

/* o->export's thread ID (PID, TID, COMM), told now; stack I (root ROOT, names
 * NAMES[0..N)), told now or logged (defer_export) as fold_run_export_frame's frames. */
struct thread;
struct frame;
struct dso_symbol;
void fold_run_export_thread(struct fold_run *r, uint32_t id, const struct thread *t);
void fold_run_export_stack(struct fold_run *r, size_t i, uint32_t root, const uint32_t *names,
			   size_t n);
/* defer_export, the records read and the stacks named: frees the raw-stack table
 * (r->stacks, emptied; r->pending) and tells the sink what was logged, in the order
 * logged (then frees the log), so that the DWARF the source
 * lines need is loaded once those are gone.  Returns each stack's weight (malloc'd). */
uint64_t *fold_run_export_after_reading(struct fold_run *r);

/* Describes name I, frame F, to o->export (perf_fold_export.c): its fold names are its
 * lines (innermost first), with perf's names, files and lines where the counts agree;
 * NAMES/SRCLINES the N_INL entries of F's inline chain when it was looked up.  With
 * defer_export only I is logged; the replay looks the rest up again (cached). */
void fold_run_export_frame(struct fold_run *r, size_t i, const struct frame *f,
			   const struct dso_symbol *sym, const char *const *names,
			   const char *const *srclines, size_t n_inl);

#endif
