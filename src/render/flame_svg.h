/* flame_svg.h - lays out a flame tree and writes it as one self-contained SVG.
 *
 * Layout: the root ("all") spans the plot width; each frame's width is its weight times
 * plot width / total weight, and its children sit on top of it (below it when inverted),
 * left to right in tree order.  A frame narrower than the minimum width is not written,
 * nor anything above it, so the SVG's size is bounded by what can be seen, not by the
 * size of the profile. */
#ifndef TEPHRA_RENDER_FLAME_SVG_H
#define TEPHRA_RENDER_FLAME_SVG_H

#include <stdio.h>

#include "base/error.h"
#include "render/flame_tree.h"
#include "render/palette.h"

struct flame_svg_opts {
	const char *title;       /* NULL: a default that says which kind of graph */
	const char *subtitle;    /* NULL: none */
	const char *countname;   /* "samples": what a count is (an event name, instructions) */
	int time_ns;             /* counts are nanoseconds (cpu-clock, task-clock periods):
				  * written as ms or s, countname unused */
	int samples_col;         /* not diff: column 1 holds each frame's number of samples,
				  * written beside its count */
	const char *measured;    /* NULL, or what was measured ("cpu-clock", "cycles"): the
				  * default title then says how much ("cpu-clock 4.07 s in
				  * 4068 samples", "1234 cycles") */
	const char *nametype;    /* "Function:" */
	const char *notes;       /* NULL: none; written as the SVG's <desc> */
	const char *fonttype;    /* "Verdana" */
	double width;            /* image width in px (1200) */
	double frame_height;     /* px per stack level (16) */
	double fontsize;         /* px (12) */
	double minwidth;         /* px, or percent of the plot width when minwidth_pct */
	int minwidth_pct;
	enum palette_kind palette;
	int hash;                /* colours by prefix-weighted name hash */
	struct palette_map *cp;  /* consistent palette, or NULL */
	int inverted;            /* icicle: root at the top */
	int flamechart;          /* only changes the default title */
	int diff;                /* two columns: widths from column 1, colour by change */
	int negate;              /* diff: widths from column 0, hues swapped */
};

void flame_svg_opts_init(struct flame_svg_opts *o);

/* Writes the SVG of T (after flame_tree_finish) to OUT.  0, or -1 with ERR set. */
int flame_svg_write(FILE *out, const char *out_name, const struct flame_tree *t,
		    const struct flame_svg_opts *o, struct tephra_error *err);

/* The geometry the writer uses, exposed for tests. */
struct flame_layout_frame {
	uint32_t node;
	unsigned depth;
	double offset;   /* weight units left of the frame, within the root */
	double x, width; /* px */
};

/* Calls FN for every frame that will be drawn, parents before children.  Returns the
 * number of frames drawn and sets *MAX_DEPTH. */
size_t flame_layout(const struct flame_tree *t, const struct flame_svg_opts *o,
		    void (*fn)(void *arg, const struct flame_layout_frame *f), void *arg,
		    unsigned *max_depth);

#endif
