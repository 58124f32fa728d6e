/* flame_diff.c - normalising and printing two-column folded stacks (see flame_diff.h). */
#include "render/flame_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* Whole counts up to 2^53 are exact in a double: printed in full, never as 1e+15. */
#define WHOLE_EXACT_MAX 9007199254740992.0

double flame_diff_normalize(struct flame_tree *t)
{
	const struct flame_node *root = flame_tree_node(t, 0);
	double before = root->weight[0], after = root->weight[1];

	if (before <= 0 || after <= 0)
		return 1;
	flame_tree_scale(t, 0, after / before);
	return after / before;
}

struct line {
	size_t off, len; /* the stack text in the shared buffer */
	double c0, c1;
};

/* Orders stacks as `sort` orders the lines "stack count...": as if each stack were
 * followed by a space. */
static int cmp_line(const void *a, const void *b, void *arg)
{
	const char *base = arg;
	const struct line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(base + x->off, base + y->off, n);

	if (c || x->len == y->len)
		return c;
	unsigned char nx = x->len > n ? (unsigned char)base[x->off + n] : ' ';
	unsigned char ny = y->len > n ? (unsigned char)base[y->off + n] : ' ';
	if (nx != ny)
		return nx < ny ? -1 : 1;
	return x->len < y->len ? -1 : 1;
}

static void put_count(FILE *out, double v, int round_it)
{
	if (round_it || (v == floor(v) && fabs(v) <= WHOLE_EXACT_MAX))
		fprintf(out, "%.0f", round_it ? floor(v + 0.5) : v);
	else
		fprintf(out, "%.6g", v);
}

int flame_diff_write_folded(const struct flame_tree *t, FILE *out, int round_it, int columns)
{
	struct strbuf text = STRBUF_INIT;
	struct line *lines = NULL;
	size_t nr = 0, cap = 0, depth_cap = 64;
	size_t *starts = xmalloc(sizeof(*starts) * depth_cap); /* path length per depth */
	size_t nr_nodes = flame_tree_nr_nodes(t);
	uint32_t id;
	unsigned depth = 0;

	/* Depth-first walk keeping the current path "a;b;c" in PATH. */
	struct strbuf path = STRBUF_INIT;
	id = flame_tree_node(t, 0)->first_child;
	starts[0] = 0;
	while (id != FLAME_NONE && nr_nodes > 1) {
		const struct flame_node *n = flame_tree_node(t, id);
		path.len = starts[depth];
		if (depth)
			strbuf_addch(&path, ';');
		strbuf_add(&path, flame_tree_name(t, n->name), flame_tree_name_len(t, n->name));
		double s0 = flame_tree_self(t, id, 0), s1 = flame_tree_self(t, id, 1);
		if (fabs(s0) > 1e-9 || fabs(s1) > 1e-9) {
			if (nr == cap) {
				cap = cap ? cap * 2 : 1024;
				lines = xrealloc(lines, sizeof(*lines) * cap);
			}
			lines[nr].off = text.len;
			lines[nr].len = path.len;
			lines[nr].c0 = s0 < 0 ? 0 : s0;
			lines[nr].c1 = s1 < 0 ? 0 : s1;
			strbuf_add(&text, path.buf, path.len);
			nr++;
		}
		if (n->first_child != FLAME_NONE) {
			if (depth + 1 >= depth_cap) {
				depth_cap *= 2;
				starts = xrealloc(starts, sizeof(*starts) * depth_cap);
			}
			starts[depth + 1] = path.len;
			depth++;
			id = n->first_child;
			continue;
		}
		while (id != FLAME_NONE && flame_tree_node(t, id)->next_sibling == FLAME_NONE) {
			id = flame_tree_node(t, id)->parent;
			if (id == 0) {
				id = FLAME_NONE;
				break;
			}
			depth--;
		}
		if (id != FLAME_NONE)
			id = flame_tree_node(t, id)->next_sibling;
	}
	if (nr)
		qsort_r(lines, nr, sizeof(*lines), cmp_line, text.buf);
	for (size_t i = 0; i < nr; i++) {
		fwrite(text.buf + lines[i].off, 1, lines[i].len, out);
		fputc(' ', out);
		put_count(out, lines[i].c0, round_it);
		if (columns == 2) {
			fputc(' ', out);
			put_count(out, lines[i].c1, round_it);
		}
		fputc('\n', out);
	}
	free(lines);
	free(starts);
	strbuf_release(&text);
	strbuf_release(&path);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
