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

/* One output line: its stack text inside the joined buffer, and its weight. */
struct line_ref {
	const char *text;
	size_t len;
	uint64_t weight;
};

/* Bytewise comparison of the joined text, a proper prefix first: Perl's `cmp` on
 * byte strings, which is what stackcollapse-perf.pl sorts its keys with. */
static int compare_lines(const void *a, const void *b)
{
	const struct line_ref *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

int fold_table_write(const struct fold_table *t, FILE *out)
{
	size_t nr = hashmap_count(&t->stacks);
	struct line_ref *lines = xmalloc(nr * sizeof(*lines));
	struct strbuf text = STRBUF_INIT;
	size_t *starts = xmalloc(nr * sizeof(*starts));
	int ret = 0;

	/* Sorting compares whole joined texts, not frame by frame: "a;b" must sort after
	 * "a!" because ';' > '!', though frame "a" sorts before frame "a!". */
	for (size_t i = 0; i < nr; i++) {
		const struct hashmap_entry *e = hashmap_entry(&t->stacks, i);
		const uint32_t *frames = e->key;
		size_t n = e->len / sizeof(uint32_t);

		starts[i] = text.len;
		for (size_t j = 0; j < n; j++) {
			const struct hashmap_entry *f = hashmap_entry(&t->frames, frames[j]);
			if (j)
				strbuf_addch(&text, ';');
			strbuf_add(&text, f->key, f->len);
		}
		lines[i].len = text.len - starts[i];
		lines[i].weight = e->value;
	}
	for (size_t i = 0; i < nr; i++)
		lines[i].text = text.buf ? text.buf + starts[i] : "";
	free(starts);
	qsort(lines, nr, sizeof(*lines), compare_lines);

	for (size_t i = 0; i < nr; i++) {
		if (fwrite(lines[i].text, 1, lines[i].len, out) != lines[i].len ||
		    fprintf(out, " %" PRIu64 "\n", lines[i].weight) < 0) {
			ret = -1;
			break;
		}
	}
	if (fflush(out) != 0)
		ret = -1;
	strbuf_release(&text);
	free(lines);
	return ret;
}
