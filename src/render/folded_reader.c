/* folded_reader.c - streaming parser of folded stack text (see folded_reader.h). */
#include "render/folded_reader.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

#define BLOCK (1u << 20)
/* A longer line is not a stack anyone can draw; skipping it keeps memory bounded. */
#define MAX_LINE (64u << 20)

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Parses the count ending at END (exclusive) leftwards; returns its start or NULL. */
static const char *count_before(const char *start, const char *end, double *out)
{
	const char *p = end;
	int dot = 0, digits = 0;

	while (p > start && (isdigit((unsigned char)p[-1]) || p[-1] == '.')) {
		if (p[-1] == '.')
			dot++;
		else
			digits++;
		p--;
	}
	if (!digits || dot > 1 || *p == '.')
		return NULL;
	char buf[64];
	size_t n = (size_t)(end - p);
	if (n < sizeof(buf)) {
		memcpy(buf, p, n);
		buf[n] = '\0';
		*out = strtod(buf, NULL);
	} else {
		/* Long, but maybe a tiny fraction written out ("0.000...0123" is how a count
		 * below 1e-46 prints): read like any other; too many digits end up as inf. */
		char *heap = xstrndup(p, n);
		*out = strtod(heap, NULL);
		free(heap);
	}
	/* From 2^53 on, doubles skip whole numbers (9007199254740993 reads as ...992), so a
	 * count there could not be kept exactly; no real profile counts that high. */
	if (!isfinite(*out) || *out >= 9007199254740992.0)
		return NULL;
	return p;
}

struct scratch {
	struct flame_span *spans;
	size_t cap;
	struct strbuf stripped;
};

static size_t strip_hex(struct strbuf *out, const char *s, size_t len)
{
	strbuf_reset(out);
	for (size_t i = 0; i < len;) {
		if (i + 2 < len && s[i] == '0' && s[i + 1] == 'x' &&
		    isxdigit((unsigned char)s[i + 2])) {
			strbuf_add(out, "0x...", 5);
			i += 2;
			while (i < len && isxdigit((unsigned char)s[i]))
				i++;
			continue;
		}
		strbuf_addch(out, s[i++]);
	}
	return out->len;
}

static int parse_line(const char *line, size_t len, struct flame_tree *t,
		      const struct folded_opts *o, int *two_columns, const char **why,
		      struct scratch *sc)
{
	const char *end = line + len;
	double c1 = 0, c2;

	while (end > line && is_space(end[-1]))
		end--;
	if (end == line)
		return 1; /* blank */
	const char *p = count_before(line, end, &c2);
	if (!p || p == line || !is_space(p[-1])) {
		*why = "no count at the end of the line";
		return -1;
	}
	const char *stack_end = p;
	while (stack_end > line && is_space(stack_end[-1]))
		stack_end--;
	int pair = 0;
	const char *q = count_before(line, stack_end, &c1);
	if (q && q > line && is_space(q[-1])) {
		pair = 1;
		if (!(o->flags & FOLDED_ONE_COLUMN)) {
			stack_end = q;
			while (stack_end > line && is_space(stack_end[-1]))
				stack_end--;
		}
	}
	if (stack_end == line) {
		*why = "empty stack";
		return -1;
	}
	if (o->flags & FOLDED_ONE_COLUMN)
		pair = 0;
	if (o->flags & FOLDED_STRIP_HEX) {
		size_t n = strip_hex(&sc->stripped, line, (size_t)(stack_end - line));
		line = sc->stripped.buf;
		stack_end = line + n;
	}
	size_t n = 0, named = 0;
	for (const char *s = line; s <= stack_end;) {
		const char *semi = memchr(s, ';', (size_t)(stack_end - s));
		if (!semi)
			semi = stack_end;
		if (n == sc->cap) {
			sc->cap = sc->cap ? sc->cap * 2 : 128;
			sc->spans = xrealloc(sc->spans, sizeof(*sc->spans) * sc->cap);
		}
		sc->spans[n].s = s;
		sc->spans[n].len = (size_t)(semi - s);
		named += sc->spans[n].len != 0;
		n++;
		s = semi + 1;
	}
	if (!named) {
		*why = "no frame names";
		return -1;
	}
	if (pair) {
		*two_columns = 1;
		flame_tree_add(t, sc->spans, n, 0, c1);
		flame_tree_add(t, sc->spans, n, 1, c2);
	} else {
		flame_tree_add(t, sc->spans, n, o->col, c2);
	}
	return 0;
}

int folded_parse_line(const char *line, size_t len, struct flame_tree *t,
		      const struct folded_opts *opts, int *two_columns, const char **why)
{
	struct scratch sc = { NULL, 0, STRBUF_INIT };
	int r = parse_line(line, len, t, opts, two_columns, why, &sc);

	free(sc.spans);
	strbuf_release(&sc.stripped);
	return r > 0 ? 0 : r;
}

static void note_line(const char *line, size_t len, struct flame_tree *t,
		      const struct folded_opts *o, struct folded_stats *st, uint64_t lineno,
		      uint64_t off, struct scratch *sc)
{
	const char *why = NULL;

	int r = parse_line(line, len, t, o, &st->two_columns, &why, sc);

	if (r >= 0) {
		st->lines += r == 0;
		return;
	}
	if (!st->bad_lines++) {
		st->first_bad_line = lineno;
		st->first_bad_offset = off;
		st->first_bad_why = why;
	}
}

int folded_read(FILE *f, const char *name, struct flame_tree *t, const struct folded_opts *o,
		struct folded_stats *st, struct tephra_error *err)
{
	struct scratch sc = { NULL, 0, STRBUF_INIT };
	struct strbuf carry = STRBUF_INIT; /* a line split across blocks */
	char *block = xmalloc(BLOCK);
	uint64_t off = 0, lineno = 0, line_off = 0, next_progress = 16u << 20;
	int too_long = 0, rc = 0;
	size_t got;

	memset(st, 0, sizeof(*st));
	while ((got = fread(block, 1, BLOCK, f)) > 0) {
		const char *p = block, *end = block + got;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl) {
				if (!too_long && carry.len + (size_t)(end - p) > MAX_LINE) {
					too_long = 1;
					strbuf_reset(&carry);
				}
				if (!too_long)
					strbuf_add(&carry, p, (size_t)(end - p));
				off += (uint64_t)(end - p);
				break;
			}
			lineno++;
			if (too_long) {
				if (!st->bad_lines++) {
					st->first_bad_line = lineno;
					st->first_bad_offset = line_off;
					st->first_bad_why = "line longer than 64 MiB";
				}
				too_long = 0;
			} else if (carry.len) {
				strbuf_add(&carry, p, (size_t)(nl - p));
				note_line(carry.buf, carry.len, t, o, st, lineno, line_off, &sc);
			} else {
				note_line(p, (size_t)(nl - p), t, o, st, lineno, line_off, &sc);
			}
			strbuf_reset(&carry);
			off += (uint64_t)(nl + 1 - p);
			line_off = off;
			p = nl + 1;
		}
		if (o->progress && off >= next_progress) {
			o->progress(o->progress_arg, off);
			next_progress = off + (16u << 20);
		}
	}
	if (ferror(f)) {
		tephra_error_at(err, name, (int64_t)off, "read error");
		rc = -1;
	} else if (too_long || carry.len) {
		lineno++;
		if (too_long) {
			if (!st->bad_lines++) {
				st->first_bad_line = lineno;
				st->first_bad_offset = line_off;
				st->first_bad_why = "line longer than 64 MiB";
			}
		} else {
			note_line(carry.buf, carry.len, t, o, st, lineno, line_off, &sc);
		}
	}
	st->bytes = off;
	free(block);
	free(sc.spans);
	strbuf_release(&sc.stripped);
	strbuf_release(&carry);
	return rc;
}
