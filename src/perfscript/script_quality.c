/* script_quality.c - the stack-quality block of `tephra script` (see script_quality.h). */
#include "perfscript/script_quality.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "perfscript/stack_quality.h"

#define KEY_UNWOUND (1ULL << 63) /* in a frame's object word: expanded into inlines */

struct script_quality {
	struct stack_quality *q;
	int no_inline;
	struct hashmap classes; /* key: [object word, addr] per frame → stack_quality class */
	uint64_t *key;
	struct frame *copy;     /* frames as classified (--no-inline: none expanded) */
	size_t cap;             /* frames KEY and COPY have room for */
};

struct script_quality *script_quality_new(const struct perf_session *s, int no_inline)
{
	if (!stack_quality_may_unwind(s->reader))
		return NULL;
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

/* Whether frame F prints expanded into the functions inlined at it (may be). */
static int expands(const struct script_quality *sq, const struct frame *f)
{
	return f->unwound && !sq->no_inline;
}

void script_quality_sample(struct script_quality *sq, struct perf_session *s,
			   const struct perf_session_sample *ps, const struct frame *frames,
			   size_t n)
{
	if (n > sq->cap) {
		while (sq->cap < n)
			sq->cap *= 2;
		sq->key = xrealloc(sq->key, 2 * sq->cap * sizeof(*sq->key));
		sq->copy = xrealloc(sq->copy, sq->cap * sizeof(*sq->copy));
	}
	/* the class depends on each frame's object, address and expansion only */
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &frames[i];
		sq->key[2 * i] = (f->obj ? (uint64_t)f->obj->id + 1 : 0) |
				 (expands(sq, f) ? KEY_UNWOUND : 0);
		sq->key[2 * i + 1] = f->addr;
	}
	int created;
	size_t i = hashmap_intern(&sq->classes, sq->key, 2 * n * sizeof(*sq->key), &created);
	struct hashmap_entry *e = hashmap_entry(&sq->classes, i);
	if (created) {
		const struct frame *as_printed = frames;
		if (sq->no_inline) {
			memcpy(sq->copy, frames, n * sizeof(*frames));
			for (size_t j = 0; j < n; j++)
				sq->copy[j].unwound = 0;
			as_printed = sq->copy;
		}
		e->value = stack_quality_stack(sq->q, &s->resolver, as_printed, n);
	}
	stack_quality_count(sq->q, (uint32_t)e->value, 1);
	if (ps->unwound)
		stack_quality_walk(sq->q, sample_unwinder_last(s->unwinder),
				   ps->sample->user_stack_size);
}

void script_quality_print(const struct script_quality *sq, const struct perf_session *s,
			  const char *who, FILE *out)
{
	if (sq && stack_quality_has_walks(sq->q))
		stack_quality_print_brief(sq->q, who, s->path, perf_reader_stats(s->reader), out);
}
