/* heatmap.h - a subsecond-offset heatmap page: one self-contained HTML file in which
 * columns are seconds, rows offsets within the second, and selecting cells draws the
 * flame graph of exactly the samples in them (FlameScope's idea, our own page).
 *
 * Fed sample by sample through a stack sink (names root first, weight, time), it keeps
 * only compact tables: the frame names once each, the stacks as a tree of (parent,
 * frame) nodes, and per sample its time, leaf node and weight as varint streams.  The
 * page carries the same tables (base64 of the streams) and its own script (heatmap.js)
 * decodes them and does all drawing; there is no server. */
#ifndef TEPHRA_RENDER_HEATMAP_H
#define TEPHRA_RENDER_HEATMAP_H

#include <stdint.h>
#include <stdio.h>

#include "fold/stack_sink.h"

struct heatmap;

struct heatmap *heatmap_new(void);
void heatmap_free(struct heatmap *h);

/* The sink that adds each sample to H.  Samples come in time order; one earlier than
 * the one before is kept with its own time all the same. */
struct stack_sink heatmap_sink(struct heatmap *h);

uint64_t heatmap_samples(const struct heatmap *h);
uint64_t heatmap_total(const struct heatmap *h);

struct heatmap_opts {
	const char *title;      /* NULL: "Heatmap" */
	const char *subtitle;   /* NULL: none (the input's name, say) */
	const char *event;      /* NULL or what was measured ("cpu-clock") */
	int time_ns;            /* weights are nanoseconds: shown as time */
	unsigned rows;          /* rows per second (cells of 1/rows s); 0: 50 */
};

/* Writes the page.  Returns 0, or -1 when writing failed. */
int heatmap_write_html(const struct heatmap *h, const struct heatmap_opts *o, FILE *out);

#endif
