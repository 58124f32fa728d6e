/* palette.h - frame colours.
 *
 * The palette names and their hue families follow flamegraph.pl's documented choices
 * (hot, mem, io, red, ..., java, js, perl, wakeup, chain; plus python and rust), so a
 * graph reads the same way; the formulas are our own.  A colour depends only on the
 * frame's name, so the same function has the same colour everywhere and in every run:
 * by default through a well-mixed hash (neighbouring frames look distinct), with --hash
 * through a hash that weighs the first characters most (similar names, similar colours).
 * A palette map file (--cp) pins colours across graphs. */
#ifndef TEPHRA_RENDER_PALETTE_H
#define TEPHRA_RENDER_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

enum palette_kind {
	PAL_HOT, PAL_MEM, PAL_IO, PAL_RED, PAL_GREEN, PAL_BLUE, PAL_AQUA, PAL_YELLOW,
	PAL_PURPLE, PAL_ORANGE, PAL_JAVA, PAL_JS, PAL_PERL, PAL_PYTHON, PAL_RUST,
	PAL_WAKEUP, PAL_CHAIN,
};

struct rgb {
	uint8_t r, g, b;
};

/* Returns 0 and sets *OUT for a palette name, -1 for an unknown one. */
int palette_parse(const char *name, enum palette_kind *out);
/* The list of names, for --help. */
const char *palette_names(void);

/* Colour of a frame named NAME[0..LEN) (raw name, with any _[k]-style annotation). */
struct rgb palette_color(enum palette_kind kind, int similar_hash, const char *name, size_t len);

/* Colour of a diff frame: red when it grew (DELTA > 0), blue when it shrank, white when
 * unchanged; the more saturated the larger |DELTA| is against MAX_ABS_DELTA. */
struct rgb palette_diff_color(double delta, double max_abs_delta);

/* Consistent palette: a file of "name->rgb(R,G,B)" lines (flamegraph.pl's palette.map
 * format). */
struct palette_map;
/* Loads PATH when it exists (an absent file gives an empty map).  NULL on a malformed
 * file, with ERR set (file, line offset, what). */
struct palette_map *palette_map_load(const char *path, struct tephra_error *err);
/* Finds NAME; on a miss stores COLOR for it.  Returns the colour to use. */
struct rgb palette_map_get(struct palette_map *m, const char *name, size_t len, struct rgb color);
/* Writes every entry, sorted by name.  0 or -1 with ERR set. */
int palette_map_save(const struct palette_map *m, const char *path, struct tephra_error *err);
void palette_map_free(struct palette_map *m);

#endif
