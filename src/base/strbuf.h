/* strbuf.h - a growable byte string (always NUL-terminated). */
#ifndef TEPHRA_BASE_STRBUF_H
#define TEPHRA_BASE_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Names from a recording (comms, event names, symbols, paths) may hold control bytes:
 * a comm "x\nfl=/etc/shadow" forges lines of a line-based output, an escape sequence
 * drives the terminal that shows it.  The line-based writers (folded stacks, callgrind,
 * report text) write every byte from 0x01 to 0x1f but tab, and 0x7f, as '?'.  Tab and
 * NUL stay: they end no line, and stackcollapse-perf.pl keeps them (a NUL reaches a
 * name only from perf script text).  `tephra script` prints names raw, as perf script
 * does. */
static inline int text_is_control(unsigned char c)
{
	return (c && c < 0x20 && c != '\t') || c == 0x7f;
}
/* Replaces the control bytes of SB from offset FROM on by '?'. */
void strbuf_clean_controls(struct strbuf *sb, size_t from);
/* fputs(S, OUT) with control bytes written as '?'. */
void fputs_clean(const char *s, FILE *out);
/* fputs(S, OUT) with control bytes (tab too) written as \xNN: messages on a terminal
 * show what a name holds without letting it act. */
void fputs_escaped(const char *s, FILE *out);

#endif
