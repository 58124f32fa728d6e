/* script_quality.h - the stack-quality block of `tephra script` (stack_quality.h).
 *
 * `tephra script` resolves and prints every sample's frames; this remembers each
 * distinct resolved stack (its frames' objects and addresses) with its stack_quality
 * class, so a stack is classified once and each later sample costs one hash of its
 * frames and one add.  Frames are counted as the script prints them: with --no-inline
 * an unwound frame is one line, not one per inlined function. */
#ifndef TEPHRA_PERFSCRIPT_SCRIPT_QUALITY_H
#define TEPHRA_PERFSCRIPT_SCRIPT_QUALITY_H

#include <stddef.h>
#include <stdio.h>

#include "perfscript/perf_session.h"

struct script_quality;

/* A tracker for session S, or NULL when no sample of the recording can carry a user
 * stack (the block would print nothing).  NO_INLINE: frames are printed without the
 * functions inlined at them. */
struct script_quality *script_quality_new(const struct perf_session *s, int no_inline);
void script_quality_free(struct script_quality *sq);

/* One printed sample PS, its frames FRAMES[0..N) callee first as the script resolved
 * them (for a sample without callchain: its ip, N = 1). */
void script_quality_sample(struct script_quality *sq, struct perf_session *s,
			   const struct perf_session_sample *ps, const struct frame *frames,
			   size_t n);

/* The short block on OUT, headed WHO, when some sample was unwound from DWARF
 * (nothing otherwise).  Call before closing the session (it names its objects). */
void script_quality_print(const struct script_quality *sq, const struct perf_session *s,
			  const char *who, FILE *out);

#endif
