/* flame_script.c - the JavaScript and the fixed part of the CSS embedded in every SVG
 * flame graph (written for tephra).  They live in flame.js and flame.css beside this
 * file: edit them there.  The build turns each into a list of bytes
 * ($(BUILD)/include/render/flame.*.inc, see src/render/build.mk) compiled in here, so
 * the SVG stays one self-contained file.  See docs/flamegraph.md for what they do. */
#include "render/flame_script.h"

static const unsigned char script[] = {
#include "render/flame.js.inc"
	0
};

static const unsigned char style[] = {
#include "render/flame.css.inc"
	0
};

const char *const flame_script_js = (const char *)script;
const char *const flame_style_css = (const char *)style;
