/* svg_text.c - displayable, truncated and XML-escaped frame names (see svg_text.h). */
#include "render/svg_text.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at S (at most N bytes), or 0 when invalid: overlong
 * forms, surrogates and U+FFFE/U+FFFF are rejected, as XML rejects them. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t need;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		need = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		need = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		need = 4, cp = c & 0x07;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return need;
}

static size_t annotation_len(const char *s, size_t len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	    strchr("kijw", s[len - 2]) && s[len - 2])
		return 4;
	return 0;
}

void svg_display_name(struct strbuf *out, const char *name, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)name;

	len -= annotation_len(name, len);
	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(s + i, len - i);
		if (k == 0 || (s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7F) {
			char esc[4] = { '\\', 'x', hex[s[i] >> 4], hex[s[i] & 15] };
			strbuf_add(out, esc, 4);
			i++;
			continue;
		}
		strbuf_add(out, s + i, k);
		i += k;
	}
}

size_t svg_utf8_chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

void svg_label(struct strbuf *out, const char *s, size_t len, size_t max_chars)
{
	if (max_chars < 3)
		return;
	if (svg_utf8_chars(s, len) <= max_chars) {
		strbuf_add(out, s, len);
		return;
	}
	size_t keep = max_chars - 2, n = 0, i = 0;
	for (; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (n == keep)
				break;
			n++;
		}
	}
	strbuf_add(out, s, i);
	strbuf_add(out, "..", 2);
}

void svg_escape(struct strbuf *out, const char *s, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		const char *rep;
		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		strbuf_add(out, s + start, i - start);
		strbuf_addstr(out, rep);
		start = i + 1;
	}
	strbuf_add(out, s + start, len - start);
}
