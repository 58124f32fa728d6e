/* Unit tests of folded_feed, the stack sink through which perf.data stacks reach the
 * flame tree: each stack must land as its folded line "f1;...;fn WEIGHT" would when read
 * with FOLDED_ONE_COLUMN (how they were added before: printed, then parsed).  Every case
 * states the tree worked out by hand and is also read as that line, which must give the
 * same tree and the same counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/flame_tree.h"
#include "render/folded_reader.h"

#include "unit/check.h"

/* The tree in pre-order as "name:weight0/weight1 " (depth shown by leading dots). */
static void dump(const struct flame_tree *t, uint32_t id, int depth, char *out, size_t cap)
{
	const struct flame_node *n = flame_tree_node(t, id);
	size_t len = strlen(out);

	snprintf(out + len, cap - len, "%.*s[%s]:%.17g/%.17g ", depth, "..........",
		 flame_tree_name(t, n->name), n->weight[0], n->weight[1]);
	for (uint32_t c = n->first_child; c != FLAME_NONE; c = flame_tree_node(t, c)->next_sibling)
		dump(t, c, depth + 1, out, cap);
}

struct feed_case {
	int line;
	const char *frames[4];
	size_t n;
	uint64_t weight;
	unsigned flags;
	int col;
	const char *want; /* the tree after flame_tree_finish */
	int bad;          /* the stack is skipped */
};

static void run(const struct feed_case *c)
{
	struct flame_tree *fed = flame_tree_new(0), *read = flame_tree_new(0);
	struct folded_opts o = { c->flags | FOLDED_ONE_COLUMN, c->col, NULL };
	struct folded_stats fed_st = { 0 }, read_st;
	struct tephra_error err = { "" };
	struct folded_feed *feed = folded_feed_new(fed, &o, &fed_st);
	struct stack_sink sink = folded_feed_sink(feed);
	char got[2048] = "", via_text[2048] = "", line[512] = "";

	sink.stack(sink.ctx, c->frames, c->n, c->weight, 0);
	folded_feed_free(feed);
	for (size_t i = 0; i < c->n; i++) {
		strcat(line, i ? ";" : "");
		strcat(line, c->frames[i]);
	}
	snprintf(line + strlen(line), sizeof(line) - strlen(line), " %.0f\n", (double)c->weight);
	FILE *f = fmemopen(line, strlen(line), "r");
	CHECK(folded_read(f, "test", read, &o, &read_st, &err) == 0);
	fclose(f);
	flame_tree_finish(fed);
	flame_tree_finish(read);
	dump(fed, 0, 0, got, sizeof(got));
	dump(read, 0, 0, via_text, sizeof(via_text));
	if (strcmp(got, c->want) || fed_st.lines != !c->bad || fed_st.bad_lines != !!c->bad) {
		fprintf(stderr, "line %d: want %s(bad %d)\n  got  %s(lines %llu, bad %llu)\n",
			c->line, c->want, c->bad, got, (unsigned long long)fed_st.lines,
			(unsigned long long)fed_st.bad_lines);
		failures++;
	}
	if (strcmp(got, via_text) || fed_st.lines != read_st.lines ||
	    fed_st.bad_lines != read_st.bad_lines) {
		fprintf(stderr, "line %d: the folded line \"%.*s\" reads as\n  %s(lines %llu, bad %llu)\n",
			c->line, (int)strlen(line) - 1, line, via_text,
			(unsigned long long)read_st.lines, (unsigned long long)read_st.bad_lines);
		failures++;
	}
	flame_tree_free(fed);
	flame_tree_free(read);
}

int main(void)
{
	static const struct feed_case cases[] = {
		{ __LINE__, { "main", "a", "leaf" }, 3, 5, 0, 0,
		  "[all]:5/0 .[main]:5/0 ..[a]:5/0 ...[leaf]:5/0 ", 0 },
		/* a ';' in a name splits it, as in the folded line */
		{ __LINE__, { "main", "a;b", "c" }, 3, 2, 0, 0,
		  "[all]:2/0 .[main]:2/0 ..[a]:2/0 ...[b]:2/0 ....[c]:2/0 ", 0 },
		/* the leaf's trailing blanks go (they end the line's stack text); others stay */
		{ __LINE__, { "f ", "leaf \t\r\v\f " }, 2, 1, 0, 0,
		  "[all]:1/0 .[f ]:1/0 ..[leaf]:1/0 ", 0 },
		/* ... up to a ';' inside the leaf's name, which leaves an empty last frame */
		{ __LINE__, { "main", "x ;  " }, 2, 4, 0, 0,
		  "[all]:4/0 .[main]:4/0 ..[x ]:4/0 ", 0 },
		/* empty names are skipped */
		{ __LINE__, { "main", "", "x" }, 3, 3, 0, 0,
		  "[all]:3/0 .[main]:3/0 ..[x]:3/0 ", 0 },
		/* a leaf name ending in a number is not a second count */
		{ __LINE__, { "main", "worker 12" }, 2, 7, 0, 0,
		  "[all]:7/0 .[main]:7/0 ..[worker 12]:7/0 ", 0 },
		/* weight 0 still draws the path (a folded line may count 0) */
		{ __LINE__, { "z" }, 1, 0, 0, 0, "[all]:0/0 .[z]:0/0 ", 0 },
		/* the other column */
		{ __LINE__, { "m", "n" }, 2, 6, 0, 1, "[all]:0/6 .[m]:0/6 ..[n]:0/6 ", 0 },
		/* -s: 0x + hex digits become 0x... */
		{ __LINE__, { "f0x1234abcd", "g 0xZZ", "h0x" }, 3, 1, FOLDED_STRIP_HEX, 0,
		  "[all]:1/0 .[f0x...]:1/0 ..[g 0xZZ]:1/0 ...[h0x]:1/0 ", 0 },
		{ __LINE__, { "a0x", "12;0xfe ", "" }, 3, 2, FOLDED_STRIP_HEX, 0,
		  "[all]:2/0 .[a0x]:2/0 ..[12]:2/0 ...[0x... ]:2/0 ", 0 },
		/* the largest weight a count can say exactly, and the first it cannot */
		{ __LINE__, { "big" }, 1, 9007199254740991ull, 0, 0,
		  "[all]:9007199254740991/0 .[big]:9007199254740991/0 ", 0 },
		{ __LINE__, { "big" }, 1, 9007199254740992ull, 0, 0, "[all]:0/0 ", 1 },
		{ __LINE__, { "big" }, 1, UINT64_MAX, 0, 0, "[all]:0/0 ", 1 },
		/* stacks that name nothing are skipped */
		{ __LINE__, { 0 }, 0, 1, 0, 0, "[all]:0/0 ", 1 },
		{ __LINE__, { "   " }, 1, 1, 0, 0, "[all]:0/0 ", 1 },
		{ __LINE__, { "", ";" }, 2, 1, 0, 0, "[all]:0/0 ", 1 },
		{ __LINE__, { "" }, 1, 1, FOLDED_STRIP_HEX, 0, "[all]:0/0 ", 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run(&cases[i]);

	/* One feed, many stacks: they merge as lines of one file do, and the counts add up. */
	struct flame_tree *t = flame_tree_new(0);
	struct folded_opts o = { FOLDED_ONE_COLUMN, 0, NULL };
	struct folded_stats st = { 0 };
	struct folded_feed *feed = folded_feed_new(t, &o, &st);
	struct stack_sink sink = folded_feed_sink(feed);
	const char *ab[] = { "a", "b" }, *ac[] = { "a", "c" }, *none[] = { "" };
	sink.stack(sink.ctx, ab, 2, 1, 10);
	sink.stack(sink.ctx, none, 1, 1, 11);
	sink.stack(sink.ctx, ac, 2, 2, 12);
	sink.stack(sink.ctx, ab, 2, 3, 13);
	folded_feed_free(feed);
	flame_tree_finish(t);
	char got[512] = "";
	dump(t, 0, 0, got, sizeof(got));
	CHECK(!strcmp(got, "[all]:6/0 .[a]:6/0 ..[b]:4/0 ..[c]:2/0 "));
	CHECK(st.lines == 3 && st.bad_lines == 1);
	flame_tree_free(t);

	if (failures)
		fprintf(stderr, "render_feed: %d failures\n", failures);
	return failures != 0;
}
