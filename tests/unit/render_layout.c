/* Unit tests of the flame graph layout: frame positions and widths, depth, the minimum
 * width cut (a frame below it is not drawn and neither is anything above it), minwidth
 * in percent, diff widths from the second column and --negate.  Expected values are
 * worked out by hand: a 1200 px image has a 1180 px plot starting at x = 10. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/flame_svg.h"
#include "render/flame_tree.h"
#include "render/folded_reader.h"

#include "unit/check.h"

struct seen {
	char text[4096];
	const struct flame_tree *t;
};

static void collect(void *arg, const struct flame_layout_frame *f)
{
	struct seen *s = arg;
	size_t len = strlen(s->text);
	const struct flame_node *n = flame_tree_node(s->t, f->node);

	snprintf(s->text + len, sizeof(s->text) - len, "%s@%u:%g+%g:%.2f,%.2f ",
		 flame_tree_name(s->t, n->name), f->depth, f->offset, n->weight[0] + n->weight[1],
		 f->x, f->width);
}

static struct flame_tree *tree_of(const char *text)
{
	struct flame_tree *t = flame_tree_new(0);
	struct folded_opts o = { 0, 0, NULL };
	struct folded_stats st;
	struct tephra_error err = { "" };
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	folded_read(f, "test", t, &o, &st, &err);
	fclose(f);
	flame_tree_finish(t);
	return t;
}

static void check_layout(const struct flame_tree *t, const struct flame_svg_opts *o,
			 const char *want, size_t want_frames, unsigned want_depth, int line)
{
	struct seen s = { "", t };
	unsigned depth = 99;
	size_t n = flame_layout(t, o, collect, &s, &depth);

	if (strcmp(s.text, want) || n != want_frames || depth != want_depth) {
		fprintf(stderr, "line %d:\n  want %s (%zu frames, depth %u)\n  got  %s (%zu frames, depth %u)\n",
			line, want, want_frames, want_depth, s.text, n, depth);
		failures++;
	}
}

int main(void)
{
	struct flame_svg_opts o;

	flame_svg_opts_init(&o);
	/* 4 samples: 295 px each. */
	struct flame_tree *t = tree_of("m;a 1\nm;b;c 2\nz 1\n");
	check_layout(t, &o,
		     "all@0:0+4:10.00,1180.00 m@1:0+3:10.00,885.00 a@2:0+1:10.00,295.00 "
		     "b@2:1+2:305.00,590.00 c@3:1+2:305.00,590.00 z@1:3+1:895.00,295.00 ",
		     6, 3, __LINE__);
	flame_tree_free(t);

	/* 1180 samples: 1 px each.  With --minwidth 2, the 1-sample frame "tiny" is cut and
	 * so is its child, however deep; "wide" (2 px) stays. */
	t = tree_of("big 1177\ntiny;deeper;deepest 1\nwide 2\n");
	o.minwidth = 2;
	check_layout(t, &o, "all@0:0+1180:10.00,1180.00 big@1:0+1177:10.00,1177.00 "
		     "wide@1:1178+2:1188.00,2.00 ", 3, 1, __LINE__);
	/* Percent of the plot: 0.2% of 1180 px = 2.36 px cuts "wide" too. */
	o.minwidth = 0.2;
	o.minwidth_pct = 1;
	check_layout(t, &o, "all@0:0+1180:10.00,1180.00 big@1:0+1177:10.00,1177.00 ", 2, 1, __LINE__);
	/* With no minimum, everything with weight is drawn. */
	o.minwidth = 0;
	o.minwidth_pct = 0;
	check_layout(t, &o, "all@0:0+1180:10.00,1180.00 big@1:0+1177:10.00,1177.00 "
		     "tiny@1:1177+1:1187.00,1.00 deeper@2:1177+1:1187.00,1.00 "
		     "deepest@3:1177+1:1187.00,1.00 wide@1:1178+2:1188.00,2.00 ", 6, 3, __LINE__);
	flame_tree_free(t);

	/* A diff: widths from the second column (after); with --negate from the first.
	 * before: a 3, b 1; after: a 1, b 1 => after total 2, 590 px per sample. */
	t = tree_of("a 3 1\nb 1 1\nc 0 0\n");
	flame_svg_opts_init(&o);
	o.diff = 1;
	check_layout(t, &o, "all@0:0+6:10.00,1180.00 a@1:0+4:10.00,590.00 b@1:1+2:600.00,590.00 ",
		     3, 1, __LINE__);
	o.negate = 1; /* before total 4: 295 px per sample */
	check_layout(t, &o, "all@0:0+6:10.00,1180.00 a@1:0+4:10.00,885.00 b@1:3+2:895.00,295.00 ",
		     3, 1, __LINE__);
	flame_tree_free(t);

	/* Width changes the scale: 600 px image, 580 px plot, 2 samples. */
	t = tree_of("x 1\ny 1\n");
	flame_svg_opts_init(&o);
	o.width = 600;
	check_layout(t, &o, "all@0:0+2:10.00,580.00 x@1:0+1:10.00,290.00 y@1:1+1:300.00,290.00 ",
		     3, 1, __LINE__);
	flame_tree_free(t);

	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
