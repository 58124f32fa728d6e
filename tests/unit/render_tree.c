/* Unit tests of the flame tree and the folded reader: merging of equal paths, sibling
 * order, reversed stacks, flame-chart (time order) merging, two-column lines, bad lines,
 * hex stripping, two-column folded output, flame-chart starts, which stacks are named,
 * exact stack counts, difffolded.pl -n arithmetic and count text.  Expected values are
 * worked out by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/flame_diff.h"
#include "render/flame_tree.h"
#include "render/folded_reader.h"

#include "unit/check.h"

/* Feeds TEXT through the streaming reader. */
static struct folded_stats read_text(struct flame_tree *t, const char *text, unsigned flags, int col)
{
	struct folded_opts o = { flags, col, NULL, NULL };
	struct folded_stats st;
	struct tephra_error err = { "" };
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	CHECK(folded_read(f, "test", t, &o, &st, &err) == 0);
	fclose(f);
	return st;
}

/* The tree in pre-order as "name:weight0/weight1 " (depth shown by leading dots). */
static void dump(const struct flame_tree *t, uint32_t id, int depth, char *out, size_t cap)
{
	const struct flame_node *n = flame_tree_node(t, id);
	size_t len = strlen(out);

	snprintf(out + len, cap - len, "%.*s%s:%g/%g ", depth, "..........",
		 flame_tree_name(t, n->name), n->weight[0], n->weight[1]);
	for (uint32_t c = n->first_child; c != FLAME_NONE; c = flame_tree_node(t, c)->next_sibling)
		dump(t, c, depth + 1, out, cap);
}

static void check_tree(const struct flame_tree *t, const char *want, int line)
{
	char got[4096] = "";

	dump(t, 0, 0, got, sizeof(got));
	if (strcmp(got, want)) {
		fprintf(stderr, "line %d:\n  want %s\n  got  %s\n", line, want, got);
		failures++;
	}
}

static char *folded_text(const struct flame_tree *t, int columns)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(flame_diff_write_folded(t, f, 0, columns) == 0);
	fclose(f);
	return buf;
}

int main(void)
{
	/* Equal paths merge wherever they occur; siblings end up sorted by name. */
	struct flame_tree *t = flame_tree_new(0);
	struct folded_stats st = read_text(t, "main;b;x 2\nmain;a 3\nmain;b;x 5\nmain;b 1\nzed 4\n", 0, 0);
	flame_tree_finish(t);
	CHECK(st.lines == 5 && st.bad_lines == 0 && !st.two_columns);
	check_tree(t, "all:15/0 .main:11/0 ..a:3/0 ..b:8/0 ...x:7/0 .zed:4/0 ", __LINE__);
	CHECK(flame_tree_self(t, 0, 0) == 0);
	char *text = folded_text(t, 1);
	CHECK(!strcmp(text, "main;a 3\nmain;b 1\nmain;b;x 7\nzed 4\n"));
	free(text);
	flame_tree_free(t);

	/* Reversed: leaf first. */
	t = flame_tree_new(FLAME_TREE_REVERSE);
	read_text(t, "main;f;leaf 2\nmain;g;leaf 3\n", 0, 0);
	flame_tree_finish(t);
	check_tree(t, "all:5/0 .leaf:5/0 ..f:2/0 ...main:2/0 ..g:3/0 ...main:3/0 ", __LINE__);
	flame_tree_free(t);

	/* Flame chart: only consecutive equal frames merge; input order is kept. */
	t = flame_tree_new(FLAME_TREE_TIME_ORDER);
	read_text(t, "m;b 1\nm;b 1\nm;a 1\nm;b 1\n", 0, 0);
	flame_tree_finish(t);
	check_tree(t, "all:4/0 .m:4/0 ..b:2/0 ..a:1/0 ..b:1/0 ", __LINE__);
	flame_tree_free(t);

	/* A flame chart continues a frame only from the line right before (as flamegraph.pl
	 * --flamechart): b, then a's own sample, then a new b; each starts where its first
	 * line came (b at 0 and 2, on a 0..3). */
	t = flame_tree_new(FLAME_TREE_TIME_ORDER);
	read_text(t, "a;b 1\na 1\na;b 1\n", 0, 0);
	flame_tree_finish(t);
	check_tree(t, "all:3/0 .a:3/0 ..b:1/0 ..b:1/0 ", __LINE__);
	uint32_t a = flame_tree_node(t, 0)->first_child;
	uint32_t b1 = flame_tree_node(t, a)->first_child, b2 = flame_tree_node(t, b1)->next_sibling;
	CHECK(flame_tree_start(t, a, 0) == 0 && flame_tree_start(t, b1, 0) == 0);
	CHECK(flame_tree_start(t, b2, 0) == 2);
	CHECK(flame_tree_self(t, a, 0) == 1);
	flame_tree_free(t);

	/* Two columns on a flame chart: starts in both, from each column's running total. */
	t = flame_tree_new(FLAME_TREE_TIME_ORDER);
	read_text(t, "a 2 1\nb 3 5\na 1 1\n", 0, 0);
	flame_tree_finish(t);
	check_tree(t, "all:6/7 .a:2/1 .b:3/5 .a:1/1 ", __LINE__);
	uint32_t last = flame_tree_node(t, 0)->last_child;
	CHECK(flame_tree_start(t, last, 0) == 5 && flame_tree_start(t, last, 1) == 6);
	flame_tree_free(t);

	/* Only stacks some line names end there: not a, which only has callees; z does,
	 * though its count is 0. */
	t = flame_tree_new(0);
	read_text(t, "a;b 1\na;c 2\nz 0\n", 0, 0);
	flame_tree_finish(t);
	a = flame_tree_node(t, 0)->first_child;
	CHECK(!flame_tree_ends_stack(t, a));
	CHECK(flame_tree_ends_stack(t, flame_tree_node(t, a)->first_child));
	CHECK(flame_tree_ends_stack(t, flame_tree_node(t, 0)->last_child));
	text = folded_text(t, 1);
	CHECK(!strcmp(text, "a;b 1\na;c 2\nz 0\n"));
	free(text);
	flame_tree_free(t);

	/* Stack counts are the sums of the lines, in input order: 0.1 + 0.1 = 0.2 for x,
	 * where x's weight less y's is 0.30000000000000004 - 0.1 = 0.20000000000000004. */
	t = flame_tree_new(FLAME_TREE_STACK_COUNTS);
	read_text(t, "x;y 0.1\nx 0.1\nx 0.1\n", 0, 0);
	flame_tree_finish(t);
	CHECK(flame_tree_self(t, flame_tree_node(t, 0)->first_child, 0) == 0.2);
	text = folded_text(t, 1);
	CHECK(!strcmp(text, "x 0.2\nx;y 0.1\n"));
	free(text);
	flame_tree_scale(t, 0, 2);
	CHECK(flame_tree_self(t, flame_tree_node(t, 0)->first_child, 0) == 0.4);
	flame_tree_free(t);

	/* Two counts fill both columns; fractions, CRLF, tabs and blank lines are fine;
	 * bad lines are skipped and the first is remembered. */
	t = flame_tree_new(0);
	st = read_text(t, "a;b 1 2\r\n\nbad\na;c\t0.5 1.5\n;;a;;b 1 1\nnocount x\n9\n", 0, 0);
	flame_tree_finish(t);
	CHECK(st.two_columns);
	CHECK(st.lines == 3);
	CHECK(st.bad_lines == 3);
	CHECK(st.first_bad_line == 3 && st.first_bad_offset == 10);
	check_tree(t, "all:2.5/4.5 .a:2.5/4.5 ..b:2/3 ..c:0.5/1.5 ", __LINE__);
	text = folded_text(t, 2);
	CHECK(!strcmp(text, "a;b 2 3\na;c 0.5 1.5\n"));
	free(text);
	flame_tree_free(t);

	/* One-column mode takes the last count of a two-count line (the stack keeps the
	 * other number as part of its last frame, as difffolded.pl reads it). */
	t = flame_tree_new(0);
	st = read_text(t, "a;b 7\n", FOLDED_ONE_COLUMN, 1);
	flame_tree_finish(t);
	check_tree(t, "all:0/7 .a:0/7 ..b:0/7 ", __LINE__);
	flame_tree_free(t);

	/* Hex stripping: addresses become 0x... and then merge. */
	t = flame_tree_new(0);
	read_text(t, "m;0x1234 1\nm;0xabcdef 2\nm;f+0x10 4\nm;0x 8\n", FOLDED_STRIP_HEX, 0);
	flame_tree_finish(t);
	check_tree(t, "all:15/0 .m:15/0 ..0x:8/0 ..0x...:3/0 ..f+0x...:4/0 ", __LINE__);
	flame_tree_free(t);

	/* A line longer than the block size spans reads; a last line without a newline. */
	size_t big = (1u << 20) + 100;
	char *long_text = malloc(big + 64);
	memset(long_text, 'x', big);
	strcpy(long_text + big, " 3\ntail 1");
	t = flame_tree_new(0);
	st = read_text(t, long_text, 0, 0);
	flame_tree_finish(t);
	CHECK(st.lines == 2 && flame_tree_node(t, 0)->weight[0] == 4);
	CHECK(flame_tree_name_len(t, flame_tree_node(t, flame_tree_node(t, 0)->first_child)->name) == 4 ||
	      flame_tree_name_len(t, flame_tree_node(t, flame_tree_node(t, 0)->first_child)->name) == big);
	free(long_text);
	flame_tree_free(t);

	/* Normalising scales the first column to the second's total. */
	t = flame_tree_new(0);
	read_text(t, "a 10\nb 10\n", FOLDED_ONE_COLUMN, 0);
	read_text(t, "a 30\nb 10\n", FOLDED_ONE_COLUMN, 1);
	flame_tree_finish(t);
	CHECK(flame_diff_normalize(t) == 2);
	check_tree(t, "all:40/40 .a:20/30 .b:20/10 ", __LINE__);
	flame_tree_free(t);

	/* difffolded.pl -n: perl's int(c * total2 / total1).  Truncated, not rounded; whole
	 * numbers multiplied exactly and, past 2^53, divided exactly when the quotient is
	 * whole: 336 * 2121000463531903 / 752 = 21 * 45127669436849 (752 = 16 * 47, the total
	 * 47 * 45127669436849), where doubles give 947681058173828.  Otherwise doubles, left
	 * to right: 123456789 * 5000000007 / 123456792 = 4999999885.49...  */
	CHECK(flame_diff_scale_count(3, 6, 4) == 4);
	CHECK(flame_diff_scale_count(1, 6, 4) == 1);
	CHECK(flame_diff_scale_count(336, 2121000463531903, 752) == 947681058173829);
	CHECK(flame_diff_scale_count(123456789, 5000000007, 123456792) == 4999999885);
	CHECK(flame_diff_scale_count(14.2343983248722834234, 13, 7) ==
	      trunc(14.2343983248722834234 * 13 / 7));

	/* Counts as text: whole numbers in full, others in the fewest digits that read back
	 * exactly, never an exponent. */
	static const struct { double v; const char *text; } counts[] = {
		{ 0, "0" }, { 7, "7" }, { 4503599627370496.0, "4503599627370496" },
		{ 1e21, "1000000000000000000000" }, { 0.5, "0.5" }, { 0.1 + 0.2, "0.30000000000000004" },
		{ 0.00001, "0.00001" }, { 1234567.25, "1234567.25" }, { 1e-7, "0.0000001" },
		{ 14.2343983248722834234, "14.234398324872284" }, { 2251799813685247.5, "2251799813685247.5" },
		{ 123.456, "123.456" },
	};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		char buf[FLAME_COUNT_BUF];
		flame_diff_format_count(buf, counts[i].v);
		if (strcmp(buf, counts[i].text)) {
			fprintf(stderr, "count %.17g: want %s, got %s\n", counts[i].v, counts[i].text, buf);
			failures++;
		}
	}
	/* Every double reads back from its text, which is digits and at most one point:
	 * extremes, and a spread of magnitudes with awkward fractions. */
	double probe[] = { 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1.0 / 3,
			   2.0 / 3 * 1e-300, 0.1, 9007199254740991.0, 4503599627370495.5 };
	for (int i = 0; i < 8 + 600; i++) {
		double v = i < 8 ? probe[i] : ldexp(1.0 / 3 + i, i % 120 - 100);
		char buf[FLAME_COUNT_BUF];
		flame_diff_format_count(buf, v);
		size_t digits = strspn(buf, "0123456789"), rest = strspn(buf + digits, ".");
		int clean = digits && rest <= 1 && strspn(buf + digits + rest, "0123456789") ==
			    strlen(buf + digits + rest);
		if (!clean || strtod(buf, NULL) != v) {
			fprintf(stderr, "count %.17g printed as %s\n", v, buf);
			failures++;
		}
		/* The folded reader takes it back (it keeps counts below 2^53), long or not. */
		if (v < 9007199254740992.0) {
			char line[FLAME_COUNT_BUF + 8];
			const char *why;
			int two = 0;
			struct folded_opts o = { 0, 0, NULL, NULL };
			int n = snprintf(line, sizeof(line), "s %s", buf);
			t = flame_tree_new(0);
			if (folded_parse_line(line, (size_t)n, t, &o, &two, &why) != 0 ||
			    flame_tree_node(t, 0)->weight[0] != v) {
				fprintf(stderr, "count %s not read back\n", buf);
				failures++;
			}
			flame_tree_free(t);
		}
	}

	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
