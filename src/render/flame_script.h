/* flame_script.h - the script of the interactive SVG (hover, zoom, search, URL state)
 * and its style sheet, from flame.js and flame.css (NUL-terminated). */
#ifndef TEPHRA_RENDER_FLAME_SCRIPT_H
#define TEPHRA_RENDER_FLAME_SCRIPT_H

/* Expects a global C = { xpad, plotw, fh, y0, texty, fontsize, total, nametype,
 * matchcolor } defined before it, and the SVG ids used by flame_svg.c. */
extern const char *const flame_script_js;

/* The rules that depend on no option; flame_svg.c writes the font rules (text, #title)
 * before them. */
extern const char *const flame_style_css;

#endif
