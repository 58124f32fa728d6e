/* stack_quality.h - how good the call stacks of a perf.data file are, and what to do
 * about the bad ones.
 *
 * Fed by a reader of perf_session samples (`tephra fold`, `tephra stat`): the outcome of
 * each DWARF walk (cut short by a full stack dump? no CFI?) and the frames each stack
 * prints as (how many are "[unknown]", and in which objects).  Stacks are given once per
 * distinct stack ("class") and then counted per sample, so the per-sample cost is one
 * add.  Prints a short block (stderr of fold/script) or the full section (tephra stat).
 *
 * Frames are counted as `perf script` prints lines: a frame expanded into inlined
 * functions counts once per function; "[unknown]" is a frame printed without a symbol. */
#ifndef TEPHRA_QUALITY_STACK_QUALITY_H
#define TEPHRA_QUALITY_STACK_QUALITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "perfdata/perf_reader.h"
#include "session/frame_resolver.h"
#include "unwind/unwinder.h"

struct stack_quality;

struct stack_quality *stack_quality_new(void);
void stack_quality_free(struct stack_quality *q);

/* Sample S's user stack (event D): its DWARF walk when UNWOUND (RES as the unwinder left
 * it), else whether the kernel could copy none of it (sample_lost_user_stack). */
void stack_quality_user_stack(struct stack_quality *q, const struct perf_event_desc *d,
			      const struct perf_sample *s, int unwound,
			      const struct unwind_result *res);

/* What a stack is, for the frame-pointer part of the block (STACK_QUALITY_* flags). */
#define STACK_QUALITY_CHAIN 1u /* a callchain the kernel walked by frame pointers (not a
				* lone ip, not unwound from DWARF) */
#define STACK_QUALITY_CUT 2u   /* ... cut at a frame limit: the recording's (the event's
				* sample_max_stack, else the kernel's default, 127) or the
				* reader's --max-stack */

/* The flags of sample S of event D (UNWOUND: its user stack was unwound from DWARF)
 * read with MAX_STACK frames at most. */
unsigned stack_quality_chain_flags(const struct perf_event_desc *d, const struct perf_sample *s,
				   int unwound, size_t max_stack);

/* Whether a function named NAME starts a thread (the outermost frame of a whole stack:
 * _start, __libc_start_call_main, start_thread, clone, clone3, ...). */
int stack_quality_is_root(const char *name);

/* A distinct stack, FRAMES[0..N) callee first as frame_resolve_callchain gives them,
 * FLAGS as stack_quality_chain_flags; returns its class for stack_quality_count.  It looks the inline chains up, and
 * addr2line's answers depend on the questions before (a2l.c): a caller that
 * prints names in the same session classifies from what it printed instead
 * (stack_quality_stack_printed), or asks only after printing them. */
uint32_t stack_quality_stack(struct stack_quality *q, struct frame_resolver *fr,
			     const struct frame *frames, size_t n, unsigned flags);

/* How a caller that prints the frames itself printed one: LINES lines (the functions
 * inlined at it, or 1), UNKNOWN when it printed as "[unknown]" (no symbol), ROOT when
 * its symbol starts a thread (stack_quality_is_root). */
struct printed_frame {
	uint32_t lines;
	uint16_t unknown;
	uint16_t root;
};

/* stack_quality_stack from what the caller printed (PRINTED[i] for FRAMES[i]), without
 * looking anything up again: the same class for the same facts. */
uint32_t stack_quality_stack_printed(struct stack_quality *q, const struct frame *frames,
				     const struct printed_frame *printed, size_t n, unsigned flags);

/* SAMPLES more samples of class CLS. */
void stack_quality_count(struct stack_quality *q, uint32_t cls, uint64_t samples);

/* Whether a sample of READER's recording can carry a user stack to unwind (some event
 * samples PERF_SAMPLE_STACK_USER; a pipe-mode stream whose header lists no event yet
 * counts as "maybe").  Where not, the block would print nothing: callers skip its work. */
int stack_quality_may_unwind(const struct perf_reader *reader);

/* Whether any sample's user stack was unwound from DWARF. */
int stack_quality_has_walks(const struct stack_quality *q);

/* Which block the stacks get (the one policy): DWARF's when some user stack was unwound
 * from DWARF; the frame-pointer one when some sample's user stack is a frame-pointer
 * callchain, but not under COMPAT (output meant to be the perl pipeline's); none. */
enum stack_quality_kind { STACK_QUALITY_NONE, STACK_QUALITY_DWARF, STACK_QUALITY_FP };
enum stack_quality_kind stack_quality_kind(const struct stack_quality *q, int compat);

/* The short block: a few lines, each with the numbers and a hint, for KIND (nothing
 * for STACK_QUALITY_NONE).  WHO prefixes the heading ("tephra fold"); PATH is the
 * file; STATS the reader's (lost events; may be NULL).  The objects named must still
 * be alive (print before closing the session). */
void stack_quality_print_brief(const struct stack_quality *q, enum stack_quality_kind kind,
			       const char *who, const char *path,
			       const struct perf_reader_stats *stats, FILE *out);

/* The block's line for the files a recording names that were not opened (a FIFO, a
 * device, another user's map file: named_file.h); nothing when there were none. */
void stack_quality_print_skipped(const struct symbol_store *store, FILE *out);

/* The full section for `tephra stat`: for DWARF, the walk outcomes by status, then the
 * frames. */
void stack_quality_print_full(const struct stack_quality *q, enum stack_quality_kind kind,
			      const struct perf_reader_stats *stats, FILE *out);

/* The full section for a whole file, in a pass of its own (the frames named as
 * `perf script` names them): prints nothing when the stacks get no block.  FORCE:
 * perf -f (symbol_options.force).  Returns 0, or -1 with ERR. */
int stack_quality_report_file(const char *path, int force, FILE *out,
			      struct tephra_error *err);

#endif
