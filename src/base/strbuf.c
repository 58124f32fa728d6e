#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	sb->buf = xrealloc(sb->buf, cap);
	sb->cap = cap;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	strbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void strbuf_clean_controls(struct strbuf *sb, size_t from)
{
	for (size_t i = from; i < sb->len; i++)
		if (text_is_control((unsigned char)sb->buf[i]))
			sb->buf[i] = '?';
}

void fputs_clean(const char *s, FILE *out)
{
	for (;;) {
		size_t n = 0;
		while (s[n] && !text_is_control((unsigned char)s[n]))
			n++;
		fwrite(s, 1, n, out);
		if (!s[n])
			return;
		fputc('?', out);
		s += n + 1;
	}
}

void fputs_escaped(const char *s, FILE *out)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (text_is_control(c) || c == '\t')
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}
