/* flame_diff.c - normalising and printing two-column folded stacks (see flame_diff.h). */
#include "render/flame_diff.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* Up to 2^53 every whole number is a double, and perl keeps such a number an integer. */
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

static int whole(double v, uint64_t *out)
{
	if (!(v >= 0 && v <= WHOLE_EXACT_MAX && v == floor(v)))
		return 0;
	*out = (uint64_t)v;
	return 1;
}

/* int(C * TOTAL2 / TOTAL1) as perl computes it in difffolded.pl -n: whole numbers are
 * multiplied exactly in 64 bits; a product above 2^53 is divided exactly when the
 * quotient is whole; everything else is double arithmetic, left to right (a 64-bit
 * product rounded to a double is the double product), then truncated. */
double flame_diff_scale_count(double c, double total2, double total1)
{
	uint64_t a, b, d, p;

	if (whole(c, &a) && whole(total2, &b) && whole(total1, &d) && d &&
	    !__builtin_mul_overflow(a, b, &p) && p > (1ull << 53) && p % d == 0)
		return (double)(p / d);
	return trunc(c * total2 / total1);
}

void flame_diff_format_count(char buf[FLAME_COUNT_BUF], double v)
{
	if (!isfinite(v)) {
		/* Cannot happen (counts are sums of counts below 2^53), but "inf" or "nan"
		 * would not be a count and not be parsed below. */
		snprintf(buf, FLAME_COUNT_BUF, "0");
		return;
	}
	if (v == floor(v)) {
		snprintf(buf, FLAME_COUNT_BUF, "%.0f", v);
		return;
	}
	/* The fewest significant digits that read back as V: 17 always do, and if some
	 * number of digits does, more do too (the shorter value is among the longer ones). */
	char e[40];
	int lo = 1, hi = 17;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		snprintf(e, sizeof(e), "%.*e", mid - 1, v);
		if (strtod(e, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(e, sizeof(e), "%.*e", hi - 1, v);
	/* ...laid out without an exponent: "[-]D.DDDe[+-]X" to plain decimals. */
	char digits[20];
	size_t nd = 0;
	const char *p = e;
	int neg = *p == '-';
	p += neg;
	for (; *p && *p != 'e'; p++)
		if (*p != '.')
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	int exp10 = atoi(p + 1); /* the first digit's power of ten */
	char *o = buf;
	if (neg)
		*o++ = '-';
	if (exp10 < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = -1; i > exp10; i--)
			*o++ = '0';
		memcpy(o, digits, nd);
		o += nd;
	} else {
		/* Not whole, so below 2^52: fewer than 17 digits before the point. */
		for (int i = 0; i <= exp10; i++)
			*o++ = (size_t)i < nd ? digits[i] : '0';
		if (nd > (size_t)exp10 + 1) {
			*o++ = '.';
			memcpy(o, digits + exp10 + 1, nd - (size_t)exp10 - 1);
			o += nd - (size_t)exp10 - 1;
		}
	}
	*o = '\0';
}

static void put_count(FILE *out, double v)
{
	char buf[FLAME_COUNT_BUF];

	flame_diff_format_count(buf, v);
	fputs(buf, out);
}

int flame_diff_write_folded(const struct flame_tree *t, FILE *out, int normalize, int columns)
{
	struct strbuf text = STRBUF_INIT;
	struct line *lines = NULL;
	size_t nr = 0, cap = 0, depth_cap = 64;
	size_t *starts = xmalloc(sizeof(*starts) * depth_cap); /* path length per depth */
	size_t nr_nodes = flame_tree_nr_nodes(t);
	uint32_t id;
	unsigned depth = 0;
	double total0 = flame_tree_node(t, 0)->weight[0], total1 = flame_tree_node(t, 0)->weight[1];
	int scale = normalize && total0 > 0 && total0 != total1; /* as difffolded.pl -n */

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
		/* Only stacks some input named: a prefix of stacks is not one. */
		if (flame_tree_ends_stack(t, id)) {
			if (nr == cap) {
				cap = cap ? cap * 2 : 1024;
				lines = xrealloc(lines, sizeof(*lines) * cap);
			}
			lines[nr].off = text.len;
			lines[nr].len = path.len;
			lines[nr].c0 = flame_tree_self(t, id, 0);
			lines[nr].c1 = flame_tree_self(t, id, 1);
			if (scale)
				lines[nr].c0 = flame_diff_scale_count(lines[nr].c0, total1, total0);
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
		put_count(out, lines[i].c0);
		if (columns == 2) {
			fputc(' ', out);
			put_count(out, lines[i].c1);
		}
		fputc('\n', out);
	}
	free(lines);
	free(starts);
	strbuf_release(&text);
	strbuf_release(&path);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
