/* flame_script.h - the script of the interactive SVG (hover, zoom, search, URL state). */
#ifndef TEPHRA_RENDER_FLAME_SCRIPT_H
#define TEPHRA_RENDER_FLAME_SCRIPT_H

/* Expects a global C = { xpad, plotw, fh, y0, texty, fontsize, total, nametype,
 * matchcolor } defined before it, and the SVG ids used by flame_svg.c. */
extern const char flame_script_js[];

#endif
