/* perf_script_text.c - the reading loop of stackcollapse-perf.pl over perf script
 * text: a header starts a sample (root name, period), frame lines are pushed leaf
 * first, a blank line ends the sample.  Quirks kept on purpose are in docs/folding.md. */
#include "perfscript/perf_script_text.h"
#include "perfscript/perf_script_line.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

struct text_state {
	struct fold_table *t;
	const struct fold_text_options *o;
	struct fold_text_stats *stats;
	const char *name;
	FILE *in;
	uint64_t line_no;
	uint64_t offset;        /* bytes read so far */
	char *src_line;         /* --srcline: the source line read after a frame */
	size_t src_cap;

	int in_sample;          /* the script's $pname is set */
	uint32_t root;          /* frame id of the root name */
	int java;               /* root starts with "java" */
	uint64_t period;
	uint32_t *frames;       /* frames of the sample, see push_frames() */
	size_t nr_frames, cap_frames;

	struct strbuf filter;   /* event kept */
	int filter_defaulted, filter_warned;
	struct strbuf name_buf; /* scratch */
	uint64_t nr_warned;     /* unrecognized lines seen */
};

/* Unrecognized lines come in floods (srcline lines read without --srcline: one per
 * frame), so only the first few are shown and the end says how many there were. */
#define MAX_LINE_WARNINGS 10

static void warn(struct text_state *s, const char *what, const char *line, size_t len)
{
	if (!s->o->warnings || ++s->nr_warned > MAX_LINE_WARNINGS)
		return;
	fprintf(s->o->warnings, "%s:%" PRIu64 ": %s: %.*s\n", s->name, s->line_no, what,
		(int)(len > 200 ? 200 : len), line);
}

static void push_frame(struct text_state *s, uint32_t id)
{
	if (s->nr_frames == s->cap_frames) {
		s->cap_frames = s->cap_frames ? s->cap_frames * 2 : 128;
		s->frames = xrealloc(s->frames, s->cap_frames * sizeof(*s->frames));
	}
	s->frames[s->nr_frames++] = id;
}

/* Stores the frames of one callchain line (names separated by ';', outermost first).
 * Lines come leaf first, so frames are kept in reverse: the line's frames are pushed
 * last to first, and the whole array is reversed when the sample ends. */
static void push_frames(struct text_state *s, const char *names, size_t len)
{
	size_t end = len;

	for (size_t i = len; i-- > 0;) {
		if (names[i] != ';')
			continue;
		push_frame(s, fold_table_frame(s->t, names + i + 1, end - i - 1));
		end = i;
	}
	push_frame(s, fold_table_frame(s->t, names, end));
}

static void end_sample(struct text_state *s)
{
	if (!s->in_sample)
		return;
	push_frame(s, s->root);
	for (size_t i = 0, j = s->nr_frames - 1; i < j; i++, j--) {
		uint32_t tmp = s->frames[i];
		s->frames[i] = s->frames[j];
		s->frames[j] = tmp;
	}
	fold_table_add(s->t, s->frames, s->nr_frames, s->period);
	if (s->stats)
		s->stats->samples++;
	s->nr_frames = 0;
	s->in_sample = 0;
}

/* Digits to a number; saturates (Perl would turn to floating point far above). */
static uint64_t parse_period(const char *p, size_t len)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(p[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return UINT64_MAX;
		v = v * 10 + d;
	}
	return v;
}

static int span_is(const struct text_span *sp, const char *lit)
{
	return sp->len == strlen(lit) && !memcmp(sp->ptr, lit, sp->len);
}

static void header_line(struct text_state *s, const char *line, size_t len,
			const struct script_header *h)
{
	struct script_event ev;
	uint64_t period = 1;

	if (script_match_event(line, len, &ev)) {
		if (s->filter.len == 0) {
			/* Merging different events (cycles and instructions) would mislead: by
			 * default only the first event seen is kept. */
			strbuf_add(&s->filter, ev.event.ptr, ev.event.len);
			s->filter_defaulted = 1;
		} else if (ev.event.len != s->filter.len ||
			   memcmp(ev.event.ptr, s->filter.buf, s->filter.len)) {
			if (s->filter_defaulted && !s->filter_warned && s->o->warnings) {
				fprintf(s->o->warnings,
					"%s:%" PRIu64 ": keeping only events of type %s, skipping %.*s\n",
					s->name, s->line_no, s->filter.buf, (int)ev.event.len,
					ev.event.ptr);
				s->filter_warned = 1;
			}
			if (s->stats)
				s->stats->filtered++;
			return; /* the sample state is left as it was, as the script does */
		}
		/* The script's "not $period": an absent period and a period of "0" count 1. */
		if (ev.period.len && !span_is(&ev.period, "0"))
			period = parse_period(ev.period.ptr, ev.period.len);
	}

	/* Without "/TID" the number is the tid and the pid is unknown ("?"); a tid of
	 * "0" is taken as absent too. */
	char pid[32], tid[32];
	const struct text_span *p = &h->pid, *tt = &h->tid;
	if (tt->len == 0 || span_is(tt, "0")) {
		tt = p;
		snprintf(pid, sizeof(pid), "?");
	} else {
		snprintf(pid, sizeof(pid), "%.*s", (int)(p->len < 31 ? p->len : 31), p->ptr);
	}
	snprintf(tid, sizeof(tid), "%.*s", (int)(tt->len < 31 ? tt->len : 31), tt->ptr);

	strbuf_reset(&s->name_buf);
	fold_name_root_text(&s->name_buf, h->comm.ptr, h->comm.len, pid, tid, s->o->root);
	s->root = fold_table_frame(s->t, s->name_buf.buf, s->name_buf.len);
	s->java = fold_root_is_java(s->name_buf.buf, s->name_buf.len);
	s->period = period;
	s->in_sample = 1;
}

/* --srcline: the line after a frame ("  file.c:12", "  libc.so.6[27b25]") is read
 * whatever it is, loses every "[...]" and its outer blanks, and what is left is
 * appended as ":file.c:12".  Frames unknown in an unknown map have no such line. */
static void srcline_piece(void *arg, struct strbuf *out, int is_unknown)
{
	struct text_state *s = arg;
	ssize_t got;

	if (is_unknown)
		return;
	got = getline(&s->src_line, &s->src_cap, s->in);
	if (got <= 0)
		return;
	s->line_no++;
	s->offset += (uint64_t)got;
	size_t len = (size_t)got;
	if (len > 0 && s->src_line[len - 1] == '\n')
		len--;
	size_t w = 0;
	for (size_t i = 0; i < len; i++) {
		if (s->src_line[i] == '[') {
			const char *close = memchr(s->src_line + i + 1, ']', len - i - 1);
			if (close) {
				i = (size_t)(close - s->src_line);
				continue;
			}
		}
		s->src_line[w++] = s->src_line[i];
	}
	size_t b = 0, e = w;
	while (b < e && script_is_blank(s->src_line[b]))
		b++;
	while (e > b && script_is_blank(s->src_line[e - 1]))
		e--;
	if (e > b) {
		strbuf_addch(out, ':');
		strbuf_add(out, s->src_line + b, e - b);
	}
}

static void frame_line(struct text_state *s, const struct script_frame *f)
{
	unsigned flags = s->o->frame_flags & (FOLD_KERNEL | FOLD_JIT | FOLD_ADDRS);

	if (!s->in_sample)
		return;
	if (s->java)
		flags |= FOLD_JAVA;
	strbuf_reset(&s->name_buf);
	size_t sym_len = fold_strip_offset(f->sym.ptr, f->sym.len);
	if (fold_name_frame_text_each(&s->name_buf, f->sym.ptr, sym_len, f->dso.ptr,
				      f->dso.len, f->pc.ptr, f->pc.len, flags,
				      s->o->srcline ? srcline_piece : NULL, s))
		push_frames(s, s->name_buf.buf, s->name_buf.len);
}

static void one_line(struct text_state *s, const char *line, size_t len)
{
	struct script_header h;
	struct script_frame f;

	if (len > 0 && line[0] == '#')
		return;
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len == 0) {
		end_sample(s);
	} else if (script_match_header(line, len, &h)) {
		header_line(s, line, len, &h);
	} else if (script_match_frame(line, len, &f)) {
		frame_line(s, &f);
	} else {
		if (s->stats)
			s->stats->unrecognized++;
		warn(s, "unrecognized line", line, len);
	}
}

int fold_perf_script_text(FILE *in, const char *name, struct fold_table *t,
			  const struct fold_text_options *o, struct tephra_error *err)
{
	struct text_state s = { .t = t, .o = o, .stats = o->stats, .name = name ? name : "-",
				.in = in };
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int ret = 0;

	if (o->event_filter && o->event_filter[0])
		strbuf_addstr(&s.filter, o->event_filter);
	if (s.stats)
		memset(s.stats, 0, sizeof(*s.stats));

	errno = 0;
	while ((got = getline(&line, &cap, in)) > 0) {
		s.line_no++;
		s.offset += (uint64_t)got;
		one_line(&s, line, (size_t)got);
	}
	if (ferror(in)) {
		tephra_error_at(err, s.name, (int64_t)s.offset, "read error: %s",
				strerror(errno ? errno : EIO));
		ret = -1;
	}
	if (o->warnings && s.nr_warned > MAX_LINE_WARNINGS)
		fprintf(o->warnings, "%s: %" PRIu64 " unrecognized lines in all (first %d shown)\n",
			s.name, s.nr_warned, MAX_LINE_WARNINGS);
	/* A sample not closed by a blank line is dropped, as the script drops it. */
	if (s.stats) {
		s.stats->lines = s.line_no;
		snprintf(s.stats->event, sizeof(s.stats->event), "%s",
			 s.filter.buf ? s.filter.buf : "");
	}
	free(line);
	free(s.src_line);
	free(s.frames);
	strbuf_release(&s.filter);
	strbuf_release(&s.name_buf);
	return ret;
}
