/* script_quality.h - the stack-quality block of `tephra script` (stack_quality.h).
 *
 * `tephra script` resolves and prints every sample's frames; this remembers each
 * distinct resolved stack (its frames' objects and addresses) with its stack_quality
 * class, so a stack is classified once — from what the script printed for it, without
 * a second lookup — and each later sample costs one hash of its frames and one add.
 * Frames are counted as the script prints them: with --no-inline an unwound frame is
 * one line, not one per inlined function. */
#ifndef TEPHRA_QUALITY_SCRIPT_QUALITY_H
#define TEPHRA_QUALITY_SCRIPT_QUALITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session/perf_session.h"
#include "quality/stack_quality.h"

struct script_quality;

/* A tracker for session S.  NO_INLINE: frames are printed without the
 * functions inlined at them. */
struct script_quality *script_quality_new(const struct perf_session *s, int no_inline);
void script_quality_free(struct script_quality *sq);

/* Looks up a sample's stack, FRAMES[0..N) callee first as the script resolved them
 * (a sample without callchain: its ip, N = 1), FLAGS stack_quality_chain_flags'.  Returns 1 when it is new: then
 * script_quality_new_stack must describe it before the next lookup. */
int script_quality_find(struct script_quality *sq, const struct frame *frames, size_t n,
			unsigned flags);

/* Classifies the new stack script_quality_find just met, from PRINTED[0..N) (how the
 * script printed each frame), or with PRINTED NULL by looking its frames up (for
 * output that does not show them: -F without ip or sym). */
void script_quality_new_stack(struct script_quality *sq, struct frame_resolver *fr,
			      const struct frame *frames, const struct printed_frame *printed,
			      size_t n);

/* Counts sample PS in the class of the stack last looked up, and its DWARF walk. */
void script_quality_sample(struct script_quality *sq, struct perf_session *s,
			   const struct perf_session_sample *ps);

/* The short block on OUT, headed WHO, when the stacks get one (stack_quality_kind).  Call before closing the session (it names its objects). */
void script_quality_print(const struct script_quality *sq, struct perf_session *s,
			  const char *who, FILE *out);

#endif
