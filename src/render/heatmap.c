/* heatmap.c - the samples of a profile as a subsecond-offset heatmap page (heatmap.h). */
#include "render/heatmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/varint.h"
#include "base/xalloc.h"
#include "export/export_write.h"
#include "fold/fold_table.h"
#include "render/heatmap_script.h"

struct heatmap {
	struct fold_table *names;  /* frame name → dense id (only its frames are used) */
	struct hashmap nodes;      /* (parent node + 1) << 32 | frame id → node id */
	uint32_t *node_parent;     /* per node: parent node + 1 (0: a root frame) */
	uint32_t *node_frame;
	size_t nr_nodes, cap_nodes;
	/* per sample, LEB128 varints: time since the first sample (zigzag delta from
	 * the previous one's), leaf node + 1 (0: the empty stack), weight (zigzag delta) */
	struct strbuf times, stacks, weights;
	uint64_t samples, total, first_time, prev_time, prev_weight;
};

struct heatmap *heatmap_new(void)
{
	struct heatmap *h = xcalloc(1, sizeof(*h));
	h->names = fold_table_new();
	hashmap_init(&h->nodes);
	return h;
}

void heatmap_free(struct heatmap *h)
{
	if (!h)
		return;
	fold_table_free(h->names);
	hashmap_release(&h->nodes);
	free(h->node_parent);
	free(h->node_frame);
	strbuf_release(&h->times);
	strbuf_release(&h->stacks);
	strbuf_release(&h->weights);
	free(h);
}

/* Signed difference NOW - BEFORE as a zigzag varint (small either way). */
static void put_delta(struct strbuf *sb, uint64_t now, uint64_t before)
{
	varint_add(sb, zigzag(now - before));
}

static uint32_t node_of(struct heatmap *h, uint32_t parent1, uint32_t frame)
{
	int created;
	size_t i = hashmap_intern_u64(&h->nodes, (uint64_t)parent1 << 32 | frame, &created);
	if (created) {
		if (h->nr_nodes == h->cap_nodes) {
			h->cap_nodes = h->cap_nodes ? 2 * h->cap_nodes : 1024;
			h->node_parent = xrealloc(h->node_parent, h->cap_nodes * sizeof(*h->node_parent));
			h->node_frame = xrealloc(h->node_frame, h->cap_nodes * sizeof(*h->node_frame));
		}
		h->node_parent[h->nr_nodes] = parent1;
		h->node_frame[h->nr_nodes] = frame;
		h->nr_nodes++;
	}
	return (uint32_t)i;
}

static void add_sample(void *ctx, const char *const *frames, size_t n, uint64_t weight,
		       uint64_t time)
{
	struct heatmap *h = ctx;
	uint32_t node1 = 0;
	for (size_t i = 0; i < n; i++)
		node1 = node_of(h, node1, fold_table_frame(h->names, frames[i], strlen(frames[i]))) + 1;
	if (!h->samples)
		h->first_time = h->prev_time = time;
	put_delta(&h->times, time, h->prev_time);
	varint_add(&h->stacks, node1);
	put_delta(&h->weights, weight, h->prev_weight);
	h->prev_time = time;
	h->prev_weight = weight;
	h->samples++;
	h->total = weight > UINT64_MAX - h->total ? UINT64_MAX : h->total + weight;
}

struct stack_sink heatmap_sink(struct heatmap *h)
{
	struct stack_sink s = { add_sample, h };
	return s;
}

uint64_t heatmap_samples(const struct heatmap *h)
{
	return h->samples;
}

uint64_t heatmap_total(const struct heatmap *h)
{
	return h->total;
}

static void put_base64(FILE *out, const struct strbuf *sb)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)sb->buf;
	size_t i = 0;
	fputc('"', out);
	for (; i + 3 <= sb->len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		fputc(digits[v >> 18], out);
		fputc(digits[(v >> 12) & 63], out);
		fputc(digits[(v >> 6) & 63], out);
		fputc(digits[v & 63], out);
	}
	if (i < sb->len) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < sb->len ? (uint32_t)p[i + 1] << 8 : 0);
		fputc(digits[v >> 18], out);
		fputc(digits[(v >> 12) & 63], out);
		fputc(i + 1 < sb->len ? digits[(v >> 6) & 63] : '=', out);
		fputc('=', out);
	}
	fputc('"', out);
}

/* S as a JSON string that may sit inside a <script> element: export_json_string's
 * escaping, and every '<' as \u003c so that no "</script" can end the element. */
static void put_json_string(FILE *out, const char *s, size_t len)
{
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	if (!mem)
		xfatal("out of memory");
	export_json_string(mem, s, len);
	if (fclose(mem))
		xfatal("out of memory");
	for (size_t i = 0; i < text_len; i++) {
		if (text[i] == '<')
			fputs("\\u003c", out);
		else
			fputc(text[i], out);
	}
	free(text);
}

/* Text for the page's HTML (title, headings): & < > " escaped; invalid UTF-8 is the
 * browser's to replace. */
static void put_html(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

int heatmap_write_html(const struct heatmap *h, const struct heatmap_opts *o, FILE *out)
{
	const char *title = o->title ? o->title : "Heatmap";
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
	put_html(out, title);
	fputs("</title>\n<style>\n", out);
	fputs(heatmap_style_css, out);
	fputs("</style></head>\n<body>\n<h1 id=\"title\">", out);
	put_html(out, title);
	fputs("</h1>\n<p id=\"subtitle\">", out);
	if (o->subtitle)
		put_html(out, o->subtitle);
	fputs("</p>\n<script type=\"application/json\" id=\"profile\">\n{\"event\":", out);
	const char *event = o->event ? o->event : "";
	put_json_string(out, event, strlen(event));
	fprintf(out, ",\"time_ns\":%d,\"rows\":%u,\"samples\":%" PRIu64 ",\"total\":\"%" PRIu64
		"\",\"first_time\":\"%" PRIu64 "\",\n\"frames\":[", o->time_ns ? 1 : 0,
		o->rows ? o->rows : 50, h->samples, h->total, h->first_time);
	size_t nr_frames = fold_table_nr_frames(h->names);
	for (size_t i = 0; i < nr_frames; i++) {
		if (i)
			fputs(i % 16 ? "," : ",\n", out);
		put_json_string(out, fold_table_frame_name(h->names, (uint32_t)i),
				fold_table_frame_len(h->names, (uint32_t)i));
	}
	/* the node table as varints too: parent + 1, frame id */
	struct strbuf nodes = STRBUF_INIT;
	for (size_t i = 0; i < h->nr_nodes; i++) {
		varint_add(&nodes, h->node_parent[i]);
		varint_add(&nodes, h->node_frame[i]);
	}
	fprintf(out, "],\n\"nr_nodes\":%zu,\"nodes\":", h->nr_nodes);
	put_base64(out, &nodes);
	strbuf_release(&nodes);
	fputs(",\n\"times\":", out);
	put_base64(out, &h->times);
	fputs(",\n\"stacks\":", out);
	put_base64(out, &h->stacks);
	fputs(",\n\"weights\":", out);
	put_base64(out, &h->weights);
	fputs("}\n</script>\n", out);
	fputs(heatmap_body_html, out);
	fputs("<script>\n", out);
	fputs(heatmap_script_js, out);
	fputs("</script>\n</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}
