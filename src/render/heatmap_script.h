/* heatmap_script.h - the fixed parts of a heatmap page (heatmap.h): its script, style
 * sheet and body, from heatmap.js, heatmap.css and heatmap.html (NUL-terminated). */
#ifndef TEPHRA_RENDER_HEATMAP_SCRIPT_H
#define TEPHRA_RENDER_HEATMAP_SCRIPT_H

/* Expects the JSON element #profile written before it by heatmap.c, and the body. */
extern const char *const heatmap_script_js;
extern const char *const heatmap_style_css;
extern const char *const heatmap_body_html;

#endif
