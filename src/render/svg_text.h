/* svg_text.h - turning frame names (arbitrary bytes) into SVG text.
 *
 * Names come from symbol tables and folded files and may hold '<', '&', quotes, control
 * characters or bytes that are not UTF-8; any of those would make the SVG unreadable.
 * A name is first made displayable (valid UTF-8; an invalid byte or a control character
 * becomes the four characters "\xNN"; the annotation suffixes _[k] _[i] _[j] _[w] are
 * dropped as flamegraph.pl drops them), then cut to a label, then escaped for XML. */
#ifndef TEPHRA_RENDER_SVG_TEXT_H
#define TEPHRA_RENDER_SVG_TEXT_H

#include <stddef.h>

#include "base/strbuf.h"

/* Appends the displayable form of NAME[0..LEN) to OUT (no XML escaping). */
void svg_display_name(struct strbuf *out, const char *name, size_t len);

/* Number of code points in the valid UTF-8 string S[0..LEN). */
size_t svg_utf8_chars(const char *s, size_t len);

/* Appends the label that fits MAX_CHARS characters: the whole of S when it fits, else its
 * first MAX_CHARS-2 characters and "..", or nothing when MAX_CHARS < 3.  S must be valid
 * UTF-8 (a displayable name); the label is not XML-escaped. */
void svg_label(struct strbuf *out, const char *s, size_t len, size_t max_chars);

/* Appends S[0..LEN) with & < > " ' escaped for XML text and attribute values. */
void svg_escape(struct strbuf *out, const char *s, size_t len);

#endif
