/* script_quality.c - the stack-quality block of `tephra script` (see script_quality.h). */
#include "quality/script_quality.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"

#define KEY_EXPANDED (1ULL << 63) /* in a frame's object word: printed with its inlines */

struct script_quality {
	struct stack_quality *q;
	int no_inline;
	struct hashmap classes; /* key: [object word, addr] per frame → stack_quality class */
	size_t entry;           /* the entry of the stack last looked up */
	uint64_t *key;
	struct frame *copy;     /* frames as classified (--no-inline: none expanded) */
	size_t cap;             /* frames KEY and COPY have room for */
	unsigned flags;         /* the stack last looked up: stack_quality_chain_flags */
};

struct script_quality *script_quality_new(const struct perf_session *s, int no_inline)
{
	(void)s;
	struct script_quality *sq = xcalloc(1, sizeof(*sq));
	sq->q = stack_quality_new();
	sq->no_inline = no_inline;
	hashmap_init(&sq->classes);
	sq->cap = 64;
	sq->key = xmalloc(2 * sq->cap * sizeof(*sq->key));
	sq->copy = xmalloc(sq->cap * sizeof(*sq->copy));
	return sq;
}

void script_quality_free(struct script_quality *sq)
{
	if (!sq)
		return;
	stack_quality_free(sq->q);
	hashmap_release(&sq->classes);
	free(sq->key);
	free(sq->copy);
	free(sq);
}

int script_quality_find(struct script_quality *sq, const struct frame *frames, size_t n,
			unsigned flags)
{
	if (n + 1 > sq->cap) {
		while (sq->cap < n + 1)
			sq->cap *= 2;
		sq->key = xrealloc(sq->key, 2 * sq->cap * sizeof(*sq->key));
		sq->copy = xrealloc(sq->copy, sq->cap * sizeof(*sq->copy));
	}
	/* the class depends on each frame's object, address and expansion only */
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &frames[i];
		sq->key[2 * i] = (f->obj ? (uint64_t)f->obj->id + 1 : 0) |
				 (f->unwound && !sq->no_inline ? KEY_EXPANDED : 0);
		sq->key[2 * i + 1] = f->addr;
	}
	sq->key[2 * n] = flags;
	sq->flags = flags;
	int created;
	sq->entry = hashmap_intern(&sq->classes, sq->key, (2 * n + 1) * sizeof(*sq->key), &created);
	return created;
}

void script_quality_new_stack(struct script_quality *sq, struct frame_resolver *fr,
			      const struct frame *frames, const struct printed_frame *printed,
			      size_t n)
{
	uint32_t cls;
	if (printed) {
		cls = stack_quality_stack_printed(sq->q, frames, printed, n, sq->flags);
	} else if (sq->no_inline) {
		memcpy(sq->copy, frames, n * sizeof(*frames));
		for (size_t j = 0; j < n; j++)
			sq->copy[j].unwound = 0;
		cls = stack_quality_stack(sq->q, fr, sq->copy, n, sq->flags);
	} else {
		cls = stack_quality_stack(sq->q, fr, frames, n, sq->flags);
	}
	hashmap_entry(&sq->classes, sq->entry)->value = cls;
}

void script_quality_sample(struct script_quality *sq, struct perf_session *s,
			   const struct perf_session_sample *ps)
{
	stack_quality_count(sq->q, (uint32_t)hashmap_entry(&sq->classes, sq->entry)->value, 1);
	stack_quality_user_stack(sq->q, ps->desc, ps->sample, ps->unwound,
				 ps->unwound ? sample_unwinder_last(s->unwinder) : NULL);
}

void script_quality_print(const struct script_quality *sq, struct perf_session *s,
			  const char *who, FILE *out)
{
	enum stack_quality_kind kind = sq ? stack_quality_kind(sq->q, 0) : STACK_QUALITY_NONE;
	if (kind == STACK_QUALITY_NONE)
		return;
	perf_session_end_progress(s); /* the block would start on the progress line */
	stack_quality_print_brief(sq->q, kind, who, s->path, perf_reader_stats(s->reader), out);
	stack_quality_print_skipped(s->store, out);
}
