/* flame_svg.c - flame graph layout and SVG output (see flame_svg.h). */
#include "render/flame_svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/flame_script.h"
#include "render/svg_text.h"

/* Whole counts up to 2^53 are exact in a double: printed in full, never as 1e+15. */
#define WHOLE_EXACT_MAX 9007199254740992.0

#define XPAD 10.0
#define FRAME_PAD 1.0 /* gap between stacked frames */
#define MATCH_COLOR "#e600e6"

void flame_svg_opts_init(struct flame_svg_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->countname = "samples";
	o->nametype = "Function:";
	o->fonttype = "Verdana";
	o->width = 1200;
	o->frame_height = 16;
	o->fontsize = 12;
	o->minwidth = 0.1;
	o->palette = PAL_HOT;
}

/* The column frame widths come from. */
static int width_col(const struct flame_svg_opts *o)
{
	return o->diff && !o->negate ? 1 : 0;
}

size_t flame_layout(const struct flame_tree *t, const struct flame_svg_opts *o,
		    void (*fn)(void *arg, const struct flame_layout_frame *f), void *arg,
		    unsigned *max_depth)
{
	int col = width_col(o);
	double total = flame_tree_node(t, 0)->weight[col];
	double plotw = o->width - 2 * XPAD;
	double minpx = o->minwidth_pct ? plotw * o->minwidth / 100 : o->minwidth;
	double scale = total > 0 ? plotw / total : 0;
	size_t drawn = 0, cap = 64;
	double *offs = xmalloc(sizeof(*offs) * cap); /* offset of the current node per depth */
	unsigned depth = 0, deepest = 0;
	uint32_t id = 0;
	/* A flame chart's frames sit where their first stack came, which leaves room for a
	 * parent's own samples between (or before) its children. */
	int chart = !!(flame_tree_flags(t) & FLAME_TREE_TIME_ORDER);

	offs[0] = 0;
	for (;;) {
		const struct flame_node *n = flame_tree_node(t, id);
		double w = n->weight[col];
		if (chart)
			offs[depth] = flame_tree_start(t, id, col);
		if (w > 0 && w * scale >= minpx) {
			struct flame_layout_frame f = { id, depth, offs[depth], XPAD + offs[depth] * scale,
							w * scale };
			drawn++;
			if (depth > deepest)
				deepest = depth;
			if (fn)
				fn(arg, &f);
			if (n->first_child != FLAME_NONE) {
				if (depth + 1 >= cap) {
					cap *= 2;
					offs = xrealloc(offs, sizeof(*offs) * cap);
				}
				offs[depth + 1] = offs[depth];
				depth++;
				id = n->first_child;
				continue;
			}
		}
		/* Next sibling, or climb until there is one. */
		while (id != 0) {
			const struct flame_node *c = flame_tree_node(t, id);
			offs[depth] += c->weight[col];
			if (c->next_sibling != FLAME_NONE) {
				id = c->next_sibling;
				break;
			}
			id = c->parent;
			depth--;
		}
		if (id == 0)
			break;
	}
	free(offs);
	if (max_depth)
		*max_depth = deepest;
	return drawn;
}

/* Numbers as short as they can be while exact for whole counts. */
static void add_num(struct strbuf *sb, double v)
{
	if (v == floor(v) && fabs(v) <= WHOLE_EXACT_MAX)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.17g", v);
}

static void add_count(struct strbuf *sb, double v)
{
	if (v == floor(v) && fabs(v) <= WHOLE_EXACT_MAX)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.2f", v);
}

/* Nanoseconds as people read them: seconds from one second on, else milliseconds. */
static void add_time(struct strbuf *sb, double ns)
{
	if (fabs(ns) >= 1e9)
		strbuf_addf(sb, "%.2f s", ns / 1e9);
	else
		strbuf_addf(sb, "%.2f ms", ns / 1e6);
}

struct writer {
	const struct flame_tree *t;
	const struct flame_svg_opts *o;
	FILE *out;
	struct strbuf sb, name, label;
	double total, max_delta, y0, texty;
	int col;
	struct strbuf countname; /* o->countname made displayable (it goes in every title) */
};

/* A count in the graph's unit: "12.35 ms" or "1234 cycles". */
static void add_amount(const struct writer *w, struct strbuf *sb, double v)
{
	if (w->o->time_ns) {
		add_time(sb, v);
		return;
	}
	add_count(sb, v);
	strbuf_addch(sb, ' ');
	svg_escape(sb, w->countname.buf ? w->countname.buf : "", w->countname.len);
}

static double self_delta(const struct writer *w, uint32_t id)
{
	return flame_tree_self(w->t, id, 1) - flame_tree_self(w->t, id, 0);
}

static void find_max_delta(void *arg, const struct flame_layout_frame *f)
{
	struct writer *w = arg;
	double d = fabs(self_delta(w, f->node));

	if (d > w->max_delta)
		w->max_delta = d;
}

static struct rgb frame_color(struct writer *w, uint32_t id, const char *raw, size_t len)
{
	if (w->o->diff)
		return palette_diff_color(self_delta(w, id), w->max_delta);
	struct rgb c = palette_color(w->o->palette, w->o->hash, raw, len);
	if (w->o->cp)
		c = palette_map_get(w->o->cp, raw, len, c);
	return c;
}

static void write_frame(void *arg, const struct flame_layout_frame *f)
{
	struct writer *w = arg;
	const struct flame_svg_opts *o = w->o;
	const struct flame_node *n = flame_tree_node(w->t, f->node);
	const char *raw = flame_tree_name(w->t, n->name);
	size_t rawlen = flame_tree_name_len(w->t, n->name);
	struct strbuf *sb = &w->sb;
	double weight = n->weight[w->col];
	double y = o->inverted ? w->y0 + f->depth * o->frame_height
			       : w->y0 - f->depth * o->frame_height;
	struct rgb c = frame_color(w, f->node, raw, rawlen);

	strbuf_reset(&w->name);
	svg_display_name(&w->name, raw, rawlen);
	strbuf_addstr(sb, "<g o=\"");
	add_num(sb, f->offset);
	strbuf_addstr(sb, "\" w=\"");
	add_num(sb, weight);
	strbuf_addstr(sb, "\"><title>");
	svg_escape(sb, w->name.buf ? w->name.buf : "", w->name.len);
	strbuf_addstr(sb, " (");
	add_amount(w, sb, weight);
	if (o->samples_col && !o->diff) {
		double samples = n->weight[1];
		strbuf_addstr(sb, ", ");
		add_count(sb, samples);
		strbuf_addstr(sb, samples == 1 ? " sample" : " samples");
	}
	if (f->node == 0)
		strbuf_addstr(sb, ", 100%");
	else
		strbuf_addf(sb, ", %.2f%%", w->total > 0 ? 100 * weight / w->total : 0);
	if (o->diff && f->node != 0)
		strbuf_addf(sb, "; %+.2f%%", w->total > 0 ? 100 * self_delta(w, f->node) / w->total : 0);
	strbuf_addf(sb, ")</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"#%02x%02x%02x\"/>", f->x, y, f->width, o->frame_height - FRAME_PAD,
		    c.r, c.g, c.b);
	strbuf_reset(&w->label);
	svg_label(&w->label, w->name.buf ? w->name.buf : "", w->name.len,
		  (size_t)(f->width / (o->fontsize * 0.59)));
	if (w->label.len) {
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\">", f->x + 3, y + w->texty);
		svg_escape(sb, w->label.buf, w->label.len);
		strbuf_addstr(sb, "</text>");
	}
	strbuf_addstr(sb, "</g>\n");
	if (sb->len > (1u << 16)) {
		fwrite(sb->buf, 1, sb->len, w->out);
		strbuf_reset(sb);
	}
}

static void add_escaped(struct strbuf *sb, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;

	svg_display_name(&tmp, s, strlen(s));
	svg_escape(sb, tmp.buf ? tmp.buf : "", tmp.len);
	strbuf_release(&tmp);
}

/* A JavaScript string literal: JSON-style escapes, and no "</" or "]]>" can appear. */
static void add_js_string(struct strbuf *sb, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;

	svg_display_name(&tmp, s, strlen(s));
	strbuf_addch(sb, '"');
	for (size_t i = 0; i < tmp.len; i++) {
		unsigned char c = (unsigned char)tmp.buf[i];
		if (c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c == ']' || c < 0x20)
			strbuf_addf(sb, "\\u%04x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '"');
	strbuf_release(&tmp);
}

/* A font name goes into CSS: characters that could end the declaration are dropped. */
static void add_font_family(struct strbuf *sb, const char *font)
{
	struct strbuf clean = STRBUF_INIT;

	for (const char *p = font; *p; p++)
		if (!strchr("{}<>;:\\/*@!&", *p))
			strbuf_addch(&clean, *p);
	add_escaped(sb, clean.buf ? clean.buf : "");
	strbuf_release(&clean);
}

static const char *default_title(const struct flame_svg_opts *o)
{
	if (o->diff)
		return o->inverted ? "Differential Icicle Graph" : "Differential Flame Graph";
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

int flame_svg_write(FILE *out, const char *out_name, const struct flame_tree *t,
		    const struct flame_svg_opts *o, struct tephra_error *err)
{
	struct writer w = { t, o, out, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0, 0, 0, 0, 0 };
	unsigned max_depth = 0;
	double fs = o->fontsize, fh = o->frame_height;
	double ypad1 = fs * 3, ypad2 = fs * 2 + 10, ypad3 = o->subtitle ? fs * 2 : 0;
	struct strbuf *sb = &w.sb;

	svg_display_name(&w.countname, o->countname, strlen(o->countname));
	w.col = width_col(o);
	w.total = flame_tree_node(t, 0)->weight[w.col];
	flame_layout(t, o, o->diff ? find_max_delta : NULL, &w, &max_depth);
	double height = (max_depth + 1) * fh + ypad1 + ypad2 + ypad3;
	w.y0 = o->inverted ? ypad1 + ypad3 + FRAME_PAD : height - ypad2 - fh + FRAME_PAD;
	w.texty = (fh - FRAME_PAD) / 2 + fs / 3;

	strbuf_addf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		    "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		    "xmlns=\"http://www.w3.org/2000/svg\">\n", o->width, height, o->width, height);
	if (o->notes) {
		strbuf_addstr(sb, "<desc id=\"notes\">");
		add_escaped(sb, o->notes);
		strbuf_addstr(sb, "</desc>\n");
	}
	strbuf_addstr(sb, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		      "<stop stop-color=\"#eeeeee\" offset=\"5%\"/>");
	strbuf_addf(sb, "<stop stop-color=\"%s\" offset=\"95%%\"/></linearGradient></defs>\n",
		    o->diff ? "#e0e0ff" : "#eeeeb0");
	strbuf_addstr(sb, "<style>\ntext { font-family: ");
	add_font_family(sb, o->fonttype);
	strbuf_addf(sb, ", sans-serif; font-size: %gpx; fill: #000; }\n"
		    "#title { text-anchor: middle; font-size: %gpx; }\n", fs, fs + 5);
	strbuf_addstr(sb, flame_style_css);
	strbuf_addstr(sb, "</style>\n");
	strbuf_addf(sb, "<script><![CDATA[\nvar C = { xpad: %g, plotw: %.17g, fh: %g, y0: %g, "
		    "texty: %g, fontsize: %g, total: ", XPAD, o->width - 2 * XPAD, fh, w.y0,
		    w.texty, fs);
	add_num(sb, w.total);
	strbuf_addstr(sb, ", nametype: ");
	add_js_string(sb, o->nametype);
	strbuf_addstr(sb, ", unit: ");
	add_js_string(sb, o->time_ns ? "ns" : o->countname);
	strbuf_addstr(sb, ", matchcolor: \"" MATCH_COLOR "\" };\n");
	strbuf_addstr(sb, flame_script_js);
	strbuf_addstr(sb, "]]></script>\n");
	strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"url(#background)\"/>\n",
		    o->width, height);
	strbuf_addf(sb, "<text id=\"title\" x=\"%g\" y=\"%g\">", o->width / 2, fs * 2);
	add_escaped(sb, o->title ? o->title : default_title(o));
	if (!o->title && o->measured && !o->diff) {
		/* how much of what: "cpu-clock 4.07 s in 4068 samples", "1234 cycles" */
		strbuf_addstr(sb, ": ");
		if (o->time_ns) {
			add_escaped(sb, o->measured);
			strbuf_addch(sb, ' ');
		}
		add_amount(&w, sb, w.total);
		if (o->samples_col) {
			strbuf_addstr(sb, " in ");
			add_count(sb, flame_tree_node(t, 0)->weight[1]);
			strbuf_addstr(sb, " samples");
		}
	}
	strbuf_addstr(sb, "</text>\n");
	if (o->subtitle) {
		strbuf_addf(sb, "<text id=\"subtitle\" x=\"%g\" y=\"%g\">", o->width / 2, fs * 4);
		add_escaped(sb, o->subtitle);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addf(sb, "<text id=\"details\" x=\"%g\" y=\"%g\"> </text>\n", XPAD, height - ypad2 / 2);
	strbuf_addf(sb, "<text id=\"unzoom\" class=\"hide\" x=\"%g\" y=\"%g\">Reset Zoom</text>\n",
		    XPAD, fs * 2);
	strbuf_addf(sb, "<text id=\"search\" x=\"%g\" y=\"%g\">Search</text>\n",
		    o->width - XPAD - 130, fs * 2);
	strbuf_addf(sb, "<text id=\"ignorecase\" x=\"%g\" y=\"%g\">ic</text>\n",
		    o->width - XPAD - 16, fs * 2);
	strbuf_addf(sb, "<text id=\"matched\" x=\"%g\" y=\"%g\"> </text>\n",
		    o->width - XPAD, height - ypad2 / 2);
	strbuf_addstr(sb, "<g id=\"frames\">\n");
	flame_layout(t, o, write_frame, &w, NULL);
	strbuf_addstr(sb, "</g>\n</svg>\n");
	fwrite(sb->buf, 1, sb->len, out);
	strbuf_release(&w.sb);
	strbuf_release(&w.name);
	strbuf_release(&w.label);
	strbuf_release(&w.countname);
	if (fflush(out) != 0 || ferror(out)) {
		tephra_error_at(err, out_name, -1, "write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}
