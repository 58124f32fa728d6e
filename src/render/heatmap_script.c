/* heatmap_script.c - the script, style sheet and body of every heatmap page (written
 * for tephra).  They live in heatmap.js, heatmap.css and heatmap.html beside this file:
 * edit them there.  The build turns each into a list of bytes, as flame_script.c's
 * (src/render/build.mk), so the page stays one self-contained file. */
#include "render/heatmap_script.h"

static const unsigned char script[] = {
#include "render/heatmap.js.inc"
	0
};

static const unsigned char style[] = {
#include "render/heatmap.css.inc"
	0
};

static const unsigned char body[] = {
#include "render/heatmap.html.inc"
	0
};

const char *const heatmap_script_js = (const char *)script;
const char *const heatmap_style_css = (const char *)style;
const char *const heatmap_body_html = (const char *)body;
