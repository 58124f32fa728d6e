#include "fold/fold_table.h"
#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <string.h>

struct fold_table {
	struct hashmap frames; /* name bytes -> (entry index = frame id) */
	struct hashmap stacks; /* uint32_t frame ids as bytes -> summed weight */
	uint64_t total;
	uint32_t *scratch;     /* frame ids for fold_table_add_text */
	size_t scratch_cap;
};

struct fold_table *fold_table_new(void)
{
	struct fold_table *t = xcalloc(1, sizeof(*t));

	hashmap_init(&t->frames);
	hashmap_init(&t->stacks);
	return t;
}

void fold_table_free(struct fold_table *t)
{
	if (!t)
		return;
	hashmap_release(&t->frames);
	hashmap_release(&t->stacks);
	free(t->scratch);
	free(t);
}

uint32_t fold_table_frame(struct fold_table *t, const char *name, size_t len)
{
	return (uint32_t)hashmap_intern(&t->frames, name, len, NULL);
}

const char *fold_table_frame_name(const struct fold_table *t, uint32_t id)
{
	if (id >= hashmap_count(&t->frames))
		return NULL;
	return hashmap_entry(&t->frames, id)->key;
}

size_t fold_table_frame_len(const struct fold_table *t, uint32_t id)
{
	if (id >= hashmap_count(&t->frames))
		return 0;
	return hashmap_entry(&t->frames, id)->len;
}

size_t fold_table_nr_frames(const struct fold_table *t)
{
	return hashmap_count(&t->frames);
}

static inline uint64_t add_saturating(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void fold_table_add(struct fold_table *t, const uint32_t *frames, size_t n, uint64_t weight)
{
	size_t idx = hashmap_intern(&t->stacks, frames, n * sizeof(*frames), NULL);
	struct hashmap_entry *e = hashmap_entry(&t->stacks, idx);

	e->value = add_saturating(e->value, weight);
	t->total = add_saturating(t->total, weight);
}

void fold_table_add_text(struct fold_table *t, const char *text, size_t len, uint64_t weight)
{
	size_t n = 0, start = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != ';')
			continue;
		if (n == t->scratch_cap) {
			t->scratch_cap = t->scratch_cap ? t->scratch_cap * 2 : 64;
			t->scratch = xrealloc(t->scratch, t->scratch_cap * sizeof(*t->scratch));
		}
		t->scratch[n++] = fold_table_frame(t, text + start, i - start);
		start = i + 1;
	}
	fold_table_add(t, t->scratch, len ? n : 0, weight);
}

void fold_table_each(const struct fold_table *t,
		     void (*fn)(void *arg, const uint32_t *frames, size_t n, uint64_t weight),
		     void *arg)
{
	for (size_t i = 0; i < hashmap_count(&t->stacks); i++) {
		const struct hashmap_entry *e = hashmap_entry(&t->stacks, i);
		fn(arg, e->key, e->len / sizeof(uint32_t), e->value);
	}
}

uint64_t fold_table_total(const struct fold_table *t)
{
	return t->total;
}

size_t fold_table_nr_stacks(const struct fold_table *t)
{
	return hashmap_count(&t->stacks);
}

/* Output order is bytewise on the joined text "f0;f1;...": Perl's `cmp` on the keys,
 * which is what stackcollapse-perf.pl sorts with.  The joined text is never built:
 * stacks are compared frame by frame, skipping equal frame ids (sibling stacks share
 * long prefixes), and only frames that differ are compared as bytes.  Comparing frame
 * names alone would be wrong: "a!;c" sorts before "a;b" because '!' < ';', though
 * frame "a" sorts before frame "a!". */
struct sort_ctx {
	const struct hashmap *frames;
};

struct line_ref {
	const uint32_t *ids;
	size_t n;
	uint64_t weight;
};

/* Byte I of the joined text of LINE (frames, ';' between), or -1 past its end.  Used
 * only in the rare case of a frame name that itself contains ';'. */
struct text_cursor {
	const struct hashmap *frames;
	const struct line_ref *line;
	size_t frame, off;
};

static int cursor_next(struct text_cursor *c)
{
	while (c->frame < c->line->n) {
		const struct hashmap_entry *e = hashmap_entry(c->frames, c->line->ids[c->frame]);
		if (c->off < e->len)
			return (unsigned char)((const char *)e->key)[c->off++];
		if (c->off == e->len && c->frame + 1 < c->line->n) {
			c->off++;
			return ';';
		}
		c->frame++;
		c->off = 0;
	}
	return -1;
}

static int compare_bytewise(const struct hashmap *frames, const struct line_ref *x,
			    const struct line_ref *y)
{
	struct text_cursor cx = { frames, x, 0, 0 }, cy = { frames, y, 0, 0 };

	for (;;) {
		int a = cursor_next(&cx), b = cursor_next(&cy);
		if (a != b)
			return a < b ? -1 : 1;
		if (a < 0)
			return 0;
	}
}

static int compare_lines(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct line_ref *x = pa, *y = pb;

	/* The empty stack's text "" equals that of a stack of one empty frame. */
	if (x->n == 0 || y->n == 0)
		return compare_bytewise(ctx->frames, x, y);
	for (size_t i = 0;; i++) {
		/* Both texts agree up to here, including the ';' before frame I (I > 0). */
		if (i == x->n || i == y->n)
			return (i < x->n) - (i < y->n); /* the one that ended first is smaller */
		if (x->ids[i] == y->ids[i])
			continue;
		const struct hashmap_entry *fx = hashmap_entry(ctx->frames, x->ids[i]);
		const struct hashmap_entry *fy = hashmap_entry(ctx->frames, y->ids[i]);
		size_t m = fx->len < fy->len ? fx->len : fy->len;
		int c = memcmp(fx->key, fy->key, m);
		if (c)
			return c;
		/* One name is a proper prefix of the other (ids differ, so lengths do): the
		 * shorter side continues with ';' or ends. */
		const struct line_ref *s = fx->len < fy->len ? x : y;
		const struct hashmap_entry *lng = fx->len < fy->len ? fy : fx;
		int next_short = i + 1 < s->n ? ';' : -1;
		int next_long = (unsigned char)((const char *)lng->key)[m];
		if (next_short == next_long) /* a ';' inside a name: compare the bytes */
			return compare_bytewise(ctx->frames, x, y);
		int short_first = next_short < next_long;
		return (s == x) == short_first ? -1 : 1;
	}
}

/* The stacks sorted bytewise by text, equal texts merged; returns their number. */
static size_t sorted_lines(const struct fold_table *t, struct line_ref **out)
{
	size_t nr = hashmap_count(&t->stacks);
	struct line_ref *lines = xmalloc((nr ? nr : 1) * sizeof(*lines));
	struct sort_ctx ctx = { &t->frames };

	for (size_t i = 0; i < nr; i++) {
		const struct hashmap_entry *e = hashmap_entry(&t->stacks, i);
		lines[i].ids = e->key;
		lines[i].n = e->len / sizeof(uint32_t);
		lines[i].weight = e->value;
	}
	qsort_r(lines, nr, sizeof(*lines), compare_lines, &ctx);

	/* Different stacks can join to the same text when a name holds ';' (a comm such
	 * as "a;b", or a caller's raw name): the script keys by text, so they are one
	 * line.  Equal texts are adjacent after sorting: merge them. */
	size_t w = 0;
	for (size_t i = 0; i < nr; i++) {
		if (w && compare_lines(&lines[w - 1], &lines[i], &ctx) == 0)
			lines[w - 1].weight = add_saturating(lines[w - 1].weight, lines[i].weight);
		else
			lines[w++] = lines[i];
	}
	*out = lines;
	return w;
}

int fold_table_each_line(const struct fold_table *t,
			 int (*fn)(void *arg, const char *stack, size_t len, uint64_t weight),
			 void *arg)
{
	struct line_ref *lines;
	size_t nr = sorted_lines(t, &lines);
	struct strbuf text = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		strbuf_reset(&text);
		for (size_t j = 0; j < lines[i].n; j++) {
			const struct hashmap_entry *f = hashmap_entry(&t->frames, lines[i].ids[j]);
			if (j)
				strbuf_addch(&text, ';');
			strbuf_add(&text, f->key, f->len);
		}
		if (fn(arg, text.buf ? text.buf : "", text.len, lines[i].weight) != 0)
			ret = -1;
	}
	strbuf_release(&text);
	free(lines);
	return ret;
}

int fold_table_write(const struct fold_table *t, FILE *out)
{
	struct line_ref *lines;
	size_t nr = sorted_lines(t, &lines);
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		for (size_t j = 0; j < lines[i].n; j++) {
			const struct hashmap_entry *f = hashmap_entry(&t->frames, lines[i].ids[j]);
			if ((j && putc(';', out) == EOF) ||
			    fwrite(f->key, 1, f->len, out) != f->len) {
				ret = -1;
				break;
			}
		}
		if (!ret && fprintf(out, " %" PRIu64 "\n", lines[i].weight) < 0)
			ret = -1;
	}
	if (fflush(out) != 0)
		ret = -1;
	free(lines);
	return ret;
}
