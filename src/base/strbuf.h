/* strbuf.h - a growable byte string (always NUL-terminated). */
#ifndef TEPHRA_BASE_STRBUF_H
#define TEPHRA_BASE_STRBUF_H

#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

#endif
