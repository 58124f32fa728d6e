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
/* From 2^53 on, doubles skip whole numbers (9007199254740993 reads as ...992), so a
 * count there could not be kept exactly; no real profile counts that high. */
#define MAX_COUNT 9007199254740992.0

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
	if (!isfinite(*out) || *out >= MAX_COUNT)
		return NULL;
	return p;
}

struct scratch {
	struct flame_span *spans;
	size_t n, cap;
	struct strbuf stripped;
	struct strbuf joined; /* folded_feed under FOLDED_STRIP_HEX */
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

/* Appends the frames of TEXT[0..LEN) (split at every ';') to SC's spans; returns how
 * many of them have a name. */
static size_t split_frames(struct scratch *sc, const char *text, size_t len)
{
	size_t named = 0;

	for (;;) {
		const char *semi = len ? memchr(text, ';', len) : NULL;
		size_t piece = semi ? (size_t)(semi - text) : len;
		if (sc->n == sc->cap) {
			sc->cap = sc->cap ? sc->cap * 2 : 128;
			sc->spans = xrealloc(sc->spans, sizeof(*sc->spans) * sc->cap);
		}
		sc->spans[sc->n].s = text;
		sc->spans[sc->n].len = piece;
		named += piece != 0;
		sc->n++;
		if (!semi)
			return named;
		text = semi + 1;
		len -= piece + 1;
	}
}

/* The stack text of a line (count and trailing blanks gone) as frames on SC's spans,
 * 0x... under FOLDED_STRIP_HEX; returns how many frames have a name. */
static size_t split_stack(struct scratch *sc, const char *text, size_t len, unsigned flags)
{
	if (flags & FOLDED_STRIP_HEX) {
		len = strip_hex(&sc->stripped, text, len);
		text = sc->stripped.buf;
	}
	return split_frames(sc, text, len);
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
	sc->n = 0;
	if (!split_stack(sc, line, (size_t)(stack_end - line), o->flags)) {
		*why = "no frame names";
		return -1;
	}
	if (pair) {
		*two_columns = 1;
		flame_tree_add(t, sc->spans, sc->n, 0, c1);
		flame_tree_add(t, sc->spans, sc->n, 1, c2);
	} else {
		flame_tree_add(t, sc->spans, sc->n, o->col, c2);
	}
	return 0;
}

static void scratch_release(struct scratch *sc)
{
	free(sc->spans);
	strbuf_release(&sc->stripped);
	strbuf_release(&sc->joined);
}

int folded_parse_line(const char *line, size_t len, struct flame_tree *t,
		      const struct folded_opts *opts, int *two_columns, const char **why)
{
	struct scratch sc = { NULL, 0, 0, STRBUF_INIT, STRBUF_INIT };
	int r = parse_line(line, len, t, opts, two_columns, why, &sc);

	scratch_release(&sc);
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
	struct scratch sc = { NULL, 0, 0, STRBUF_INIT, STRBUF_INIT };
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
		if (o->report && off >= next_progress) {
			tephra_progress(o->report, off, 0);
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
	scratch_release(&sc);
	strbuf_release(&carry);
	return rc;
}

struct folded_feed {
	struct flame_tree *t;
	struct folded_opts o;
	struct folded_stats *st;
	struct scratch sc;
};

struct folded_feed *folded_feed_new(struct flame_tree *t, const struct folded_opts *o,
				    struct folded_stats *st)
{
	struct folded_feed *f = xcalloc(1, sizeof(*f));

	f->t = t;
	f->o = *o;
	f->st = st;
	f->sc = (struct scratch){ NULL, 0, 0, STRBUF_INIT, STRBUF_INIT };
	return f;
}

void folded_feed_free(struct folded_feed *f)
{
	if (!f)
		return;
	scratch_release(&f->sc);
	free(f);
}

/* What parse_line does with the line "FRAMES[0];...;FRAMES[N-1] WEIGHT" under
 * FOLDED_ONE_COLUMN, without writing it: joined text and per-frame splitting give the
 * same frames, because a ';' inside a name splits it either way and the line's trailing
 * blanks can only be the leaf's (a ';' stops the trimming). */
static void feed_stack(void *ctx, const char *const *frames, size_t n, uint64_t weight,
		       uint64_t time)
{
	struct folded_feed *f = ctx;
	struct scratch *sc = &f->sc;
	size_t named = 0;

	(void)time;
	sc->n = 0;
	/* no frame: "empty stack"; a weight from 2^53 on: the count would not parse */
	if (n && (double)weight < MAX_COUNT) {
		if (f->o.flags & FOLDED_STRIP_HEX)
			strbuf_reset(&sc->joined);
		for (size_t i = 0; i < n; i++) {
			const char *name = frames[i];
			size_t len = strlen(name);
			if (i == n - 1)
				while (len && is_space(name[len - 1]))
					len--;
			if (f->o.flags & FOLDED_STRIP_HEX) {
				if (i)
					strbuf_addch(&sc->joined, ';');
				strbuf_add(&sc->joined, name, len);
			} else {
				named += split_frames(sc, name, len);
			}
		}
		if (f->o.flags & FOLDED_STRIP_HEX)
			named = split_stack(sc, sc->joined.buf, sc->joined.len, f->o.flags);
	}
	if (!named) {
		f->st->bad_lines++;
		return;
	}
	flame_tree_add(f->t, sc->spans, sc->n, f->o.col, (double)weight);
	f->st->lines++;
}

struct stack_sink folded_feed_sink(struct folded_feed *f)
{
	return (struct stack_sink){ feed_stack, f };
}
